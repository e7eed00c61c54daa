import { toValue } from 'liquidjs';
import { TemplateFailure } from '../errors';
import { renderMarkdown } from '../markdown';
import { SafeHtml, toOutputString } from '../safe-html';
import { toNumber } from './args';
import type { Filter } from './filter-types';

/** `{% assign items = input | from_json %}`; a string that is not JSON gives nil, non-strings pass through. */
export const from_json: Filter = function (value) {
  const v = toValue(value);
  if (typeof v !== 'string') return v;
  this.context.memoryLimit.use(v.length);
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
};

/** `{{ total_actors | pluralize: "user", "users" }}`: the singular for exactly 1, the plural otherwise. */
export const pluralize: Filter = function (value, singular, plural) {
  if (typeof singular !== 'string') throw new TemplateFailure('template_render', 'pluralize needs the singular form as first argument');
  const n = toNumber(value);
  if (n === 1) return singular;
  return typeof plural === 'string' ? plural : `${singular}s`;
};

/** `{{ "my project name" | titlecase }}` -> `My Project Name`; the rest of each word is kept as written. */
export const titlecase: Filter = function (value) {
  const text = toOutputString(value);
  return text.replace(/(^|\s)(\p{L})/gu, (_m, space: string, letter: string) => space + letter.toUpperCase());
};

/** `{{ data.comment | from_markdown }}`: sanitized HTML, left unescaped in HTML bodies. */
export const from_markdown: Filter = function (value) {
  const text = toOutputString(value);
  this.context.memoryLimit.use(text.length);
  return new SafeHtml(renderMarkdown(text));
};

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

/** `{{ arr1 | intersect: arr2 }}`: the items of the first array also in the second, once each, in order. */
export const intersect: Filter = function (value, other) {
  const left = toValue(value);
  const right = toValue(other);
  if (!Array.isArray(left) || !Array.isArray(right)) return [];
  this.context.memoryLimit.use(left.length + right.length);
  const out: unknown[] = [];
  for (const item of left) {
    if (right.some((r) => sameValue(r, item)) && !out.some((o) => sameValue(o, item))) out.push(item);
  }
  return out;
};

interface SemVer {
  core: number[];
  pre: (string | number)[];
}

function parseVersion(value: unknown): SemVer | undefined {
  const v = toValue(value);
  const text = typeof v === 'number' ? String(v) : v;
  if (typeof text !== 'string') return undefined;
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!m) return undefined;
  const pre = m[4] ? m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
  return { core: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre };
}

function compareIdentifiers(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Semantic version order (prereleases before releases); nil when either side is not a version. */
export const compare_versions: Filter = function (value, other) {
  const a = parseVersion(value);
  const b = parseVersion(other);
  if (!a || !b) return null;
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return Math.sign(a.core[i] - b.core[i]);
  if (!a.pre.length || !b.pre.length) return a.pre.length === b.pre.length ? 0 : a.pre.length ? -1 : 1;
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    if (a.pre[i] === undefined) return -1;
    if (b.pre[i] === undefined) return 1;
    const c = compareIdentifiers(a.pre[i], b.pre[i]);
    if (c) return c;
  }
  return 0;
};
