import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level: equal data gives equal text, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The `sha` of a resource: sha256 of its data in canonical JSON. */
export function contentSha(content: unknown): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}
