/**
 * Removes dotted field paths (`entries.archived_at`, `meta.unseen_count`, `vars`) from an
 * answer; a path through an array applies to each element.
 */
export function excludeFields<T>(value: T, paths: readonly string[]): T {
  for (const path of paths) remove(value, path.split('.'));
  return value;
}

function remove(node: unknown, segments: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) remove(item, segments);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const [head, ...rest] = segments;
  const record = node as Record<string, unknown>;
  if (rest.length === 0) delete record[head];
  else remove(record[head], rest);
}
