import fc from 'fast-check';
import { z } from 'zod';

/**
 * fast-check arbitraries derived from the route contracts' zod schemas (through their JSON
 * Schema), and hostile variations of them. "Valid-ish": formats, enums, bounds and required keys
 * are followed; refinements and cross-field rules are not, so many values are still refused.
 */

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};

export function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
}

const MAX_REF_DEPTH = 2;
const small = (n: number | undefined, fallback: number, cap: number) => Math.min(n ?? fallback, cap);

/** An arbitrary of values the JSON Schema describes, kept small. */
export function fromJsonSchema(root: JsonSchema): fc.Arbitrary<unknown> {
  const defs = root.$defs ?? {};
  const refs = new Map<string, fc.Arbitrary<unknown>>();
  const build = (s: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    if (s.$ref) {
      // Recursive definitions (workflow steps, condition groups) unfold a bounded number of times.
      const name = s.$ref.replace('#/$defs/', '');
      if (depth >= MAX_REF_DEPTH || !defs[name]) return fc.constant(null);
      const key = `${name}@${depth}`;
      if (!refs.has(key)) refs.set(key, build(defs[name], depth + 1));
      return refs.get(key)!;
    }
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives?.length) return fc.oneof(...alternatives.map((a) => build(a, depth)));
    if (s.allOf?.length) {
      return fc
        .tuple(...s.allOf.map((a) => build(a, depth)))
        .map((parts) => (parts.every((p) => p && typeof p === 'object' && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0]));
    }
    if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type) => build({ ...s, type }, depth)));
    switch (s.type) {
      case 'string':
        return stringFor(s);
      case 'integer':
        return fc.integer({ min: s.minimum ?? (s.exclusiveMinimum ?? -1001) + 1, max: s.maximum ?? (s.exclusiveMaximum ?? 1001) - 1 });
      case 'number':
        return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => build(p, depth)));
        const min = small(s.minItems, 0, 3);
        return fc.array(s.items ? build(s.items, depth) : fc.jsonValue({ maxDepth: 1 }), {
          minLength: min,
          maxLength: Math.max(min, small(s.maxItems, 3, 3)),
        });
      }
      case 'object': {
        const properties = s.properties ?? {};
        const keys = Object.keys(properties);
        if (keys.length) {
          const shape = Object.fromEntries(keys.map((k) => [k, build(properties[k], depth)]));
          return fc.record(shape, { requiredKeys: (s.required ?? []).filter((k) => k in properties) });
        }
        const values = typeof s.additionalProperties === 'object' ? build(s.additionalProperties, depth) : fc.jsonValue({ maxDepth: 1 });
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), values, { maxKeys: 3 });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  };
  return build(root, 0);
}

function stringFor(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.max(min, small(s.maxLength, 24, 40));
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
  }
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
    } catch {
      // a pattern fast-check cannot generate from: plain strings (most are then refused)
    }
  }
  return fc.string({ minLength: min, maxLength: max });
}

/** Values that break assumptions: storage, size, nesting, types. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('a\u0000b', '\u0000', '\ud800', 'x\udfffy', '\ud83d', '..', '.', 'a/b', 'a\u202eb', '\u200b', ' ', ''),
  fc.constantFrom(0, -1, 1.5, 1e308, -1e308, true, false, null, [], {}, [null], { '': null }, 'x'.repeat(300)),
  fc.integer({ min: 70, max: 3000 }).map((n) => nestedValue(n)),
  fc.constantFrom(100_000, 1_100_000).map((n) => 'x'.repeat(n)),
  fc.jsonValue({ maxDepth: 3 }),
);

/** An array nested `depth` levels deep, built without recursion. */
export function nestedValue(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Replaces one randomly chosen place in the value (the root included) by a hostile value, or wraps a scalar in an array. */
export function mutate(value: unknown): fc.Arbitrary<unknown> {
  const places = placesIn(value);
  return fc
    .tuple(
      fc.nat({ max: places.length - 1 }),
      fc.oneof({ weight: 4, arbitrary: hostileValue }, { weight: 1, arbitrary: fc.constant(WRAP) }),
    )
    .map(([index, replacement]) => replaceAt(value, places[index], replacement));
}

const WRAP = Symbol('wrap in an array');

function placesIn(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = [], depth = 0): (string | number)[][] {
  out.push(path);
  if (depth > 6 || out.length > 200) return out;
  if (Array.isArray(value)) value.forEach((v, i) => placesIn(v, [...path, i], out, depth + 1));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) placesIn(v, [...path, k], out, depth + 1);
  return out;
}

function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const next = (current: unknown) => (replacement === WRAP ? [current] : replacement);
  if (path.length === 0) return next(value);
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path;
  copy[head] = rest.length ? replaceAt(copy[head], rest, replacement) : next(copy[head]);
  return copy;
}
