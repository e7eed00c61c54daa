/** JSON text with object keys sorted (and undefined members left out, as JSON.stringify does). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonical(v))).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return String(JSON.stringify(value));
}

/**
 * Equal as JSON whatever the order of object keys. State folded from stored events comes back in
 * the database's key order (PostgreSQL's jsonb sorts keys), so comparing JSON text as written
 * would take unchanged data for a change.
 */
export const sameJson = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);
