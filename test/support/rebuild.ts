import { TestApp } from './test-app';

/** Rebuilds projections from the log and returns their tables before and after, for a live == rebuild check. */
export async function rebuildAndCompare(
  t: TestApp,
  names: string[],
): Promise<{ live: Record<string, unknown[]>; rebuilt: Record<string, unknown[]> }> {
  const tables = names.flatMap((n) => t.runtime.get(n).tables);
  const snapshot = async () => {
    const out: Record<string, unknown[]> = {};
    // Ordered by the whole row: tables have any number of columns (rm_config_version has two).
    for (const table of tables) out[table] = await t.sql(`SELECT * FROM ${table} r ORDER BY r::text`);
    return out;
  };
  const live = await snapshot();
  for (const name of names) await t.runtime.rebuild(name);
  return { live, rebuilt: await snapshot() };
}
