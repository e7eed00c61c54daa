import { TestApp } from './test-app';

/** Rebuilds projections from the log and returns their tables before and after, for a live == rebuild check. */
export async function rebuildAndCompare(
  t: TestApp,
  names: string[],
): Promise<{ live: Record<string, unknown[]>; rebuilt: Record<string, unknown[]> }> {
  const tables = names.flatMap((n) => t.runtime.get(n).tables);
  const snapshot = async () => {
    const out: Record<string, unknown[]> = {};
    for (const table of tables) out[table] = await t.sql(`SELECT * FROM ${table} ORDER BY 1, 2, 3`);
    return out;
  };
  const live = await snapshot();
  for (const name of names) await t.runtime.rebuild(name);
  return { live, rebuilt: await snapshot() };
}
