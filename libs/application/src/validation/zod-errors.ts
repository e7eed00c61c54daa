import { FieldError, invalidParams } from '@notify/domain';
import { z } from 'zod';

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

/** An issue with its path made absolute (issues inside a union's variants are relative to the union). */
interface Located {
  issue: Issue;
  path: PathKey[];
}

/**
 * How far into the input a failing union variant got: an unknown key or a missing required key
 * means the variant's shape did not match at that level; a wrong value under a known key means
 * it matched one level deeper.
 */
function depthOf(located: Located, base: number): number {
  const { issue, path } = located;
  const depth = path.length - base;
  if (issue.code === 'unrecognized_keys') return depth;
  if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) return Math.max(0, depth - 1);
  return depth;
}

function weightOf(issue: Issue): number {
  return issue.code === 'unrecognized_keys' ? issue.keys.length : 1;
}

/**
 * A union's issue as the issues of its closest variant: the one whose shape matched deepest
 * into the input, then the one with the fewest issues. When several variants are equally close
 * and none got past the union's own level, one issue at the union's path lists what each expected.
 */
function resolveUnion(issue: Extract<Issue, { code: 'invalid_union' }>, path: PathKey[]): Located[] {
  const variants = (issue.errors ?? [])
    .map((issues) => issues.flatMap((i) => locate(i, [...path, ...i.path])))
    .filter((issues) => issues.length > 0);
  if (variants.length === 0) return [{ issue, path }];
  const scored = variants.map((issues) => ({
    issues,
    depth: Math.min(...issues.map((l) => depthOf(l, path.length))),
    weight: issues.reduce((n, l) => n + weightOf(l.issue), 0),
  }));
  scored.sort((a, b) => b.depth - a.depth || a.weight - b.weight);
  const best = scored[0];
  const tied = scored.filter((s) => s.depth === best.depth && s.weight === best.weight);
  if (tied.length === 1 || best.depth > 0) return best.issues;
  const describe = (l: Located) => {
    const rel = l.path.slice(path.length).map(String).join('.');
    const message = l.issue.code === 'unrecognized_keys' ? `unknown ${l.issue.keys.map((k) => `"${k}"`).join(', ')}` : l.issue.message;
    return rel ? `${rel}: ${message}` : message;
  };
  const options = tied.slice(0, 4).map((s) => s.issues.map(describe).join(', '));
  const more = tied.length > 4 ? `; or ${tied.length - 4} more` : '';
  return [
    {
      issue: { ...issue, message: `matches none of the ${variants.length} accepted shapes (${options.join('; or ')}${more})` },
      path,
    },
  ];
}

function locate(issue: Issue, path: PathKey[]): Located[] {
  if (issue.code === 'invalid_union') return resolveUnion(issue, path);
  return [{ issue, path }];
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  for (const { issue, path: at } of error.issues.flatMap((i) => locate(i as Issue, i.path))) {
    const path = at.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push({ field: path ? `${path}.${key}` : key, message: 'is not a permitted field', type: 'unrecognized_key' });
    } else {
      out.push({ field: path || '(root)', message: issue.message, type: issue.code });
    }
  }
  return out;
}

export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, prefix?: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error).map((e) => (prefix ? { ...e, field: `${prefix}.${e.field}` } : e));
  throw invalidParams(errors);
}
