/**
 * The rows of an `UPDATE ... RETURNING` run through `DataSource.query` / `EntityManager.query`:
 * TypeORM's postgres driver answers `[rows, count]` for UPDATE and DELETE, and the rows alone
 * for other statements (and other drivers may too).
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
