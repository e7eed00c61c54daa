import { PageInfoT, TOTAL_COUNT_CAP } from '@notify/contracts';
import { invalidParams } from '@notify/domain';
import { DataSource, EntityManager } from 'typeorm';

export interface SortKey {
  /** SQL expression, e.g. `u.inserted_at`. */
  expr: string;
  /** Postgres type the cursor value is cast back to. */
  type: 'timestamptz' | 'text' | 'bigint' | 'integer' | 'uuid';
}

export interface KeysetQuery {
  select: string;
  /** `FROM ... WHERE ...` including the environment condition; may use $1..$n from params. */
  from: string;
  params: unknown[];
  /** Sort keys, all in one direction, the last one unique. */
  order: SortKey[];
  direction: 'asc' | 'desc';
  pageSize: number;
  after?: string;
  before?: string;
  /** Count matching rows up to the cap (page_info.total_count). */
  withTotal?: boolean;
}

export interface KeysetResult<Row> {
  rows: Row[];
  pageInfo: PageInfoT;
}

/** Cursors are opaque to clients: base64url of the boundary row's sort key values. */
export function encodeCursor(values: (string | null)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, field: 'after' | 'before', arity: number): (string | null)[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(values) && values.length === arity && values.every((v) => v === null || typeof v === 'string'))
      return values as (string | null)[];
  } catch {
    // fall through to the validation error
  }
  throw invalidParams([{ field, message: 'is not a valid cursor', type: 'invalid_cursor' }]);
}

/**
 * Keyset pagination: the page after (or before) a cursor, newest or oldest first, fetched with
 * one extra row to know whether another page exists. Stable under concurrent inserts.
 */
export async function keysetPage<Row extends Record<string, unknown>>(
  db: DataSource | EntityManager,
  q: KeysetQuery,
): Promise<KeysetResult<Row>> {
  if (q.after && q.before) throw invalidParams([{ field: 'before', message: 'cannot be combined with after', type: 'conflict' }]);
  const backwards = !!q.before;
  const cursor = q.after ?? q.before;
  const params = [...q.params];
  const keyList = q.order.map((k) => k.expr).join(', ');
  let where = '';
  if (cursor) {
    const values = decodeCursor(cursor, q.after ? 'after' : 'before', q.order.length);
    const placeholders = values.map((v, i) => {
      params.push(v);
      return `$${params.length}::${q.order[i].type}`;
    });
    // Rows after the cursor in the requested direction; before = the other way.
    const forwardCmp = q.direction === 'desc' ? '<' : '>';
    const cmp = backwards ? (forwardCmp === '<' ? '>' : '<') : forwardCmp;
    where = `AND (${keyList}) ${cmp} (${placeholders.join(', ')})`;
  }
  const scanDirection = backwards ? (q.direction === 'desc' ? 'ASC' : 'DESC') : q.direction.toUpperCase();
  const orderBy = q.order.map((k) => `${k.expr} ${scanDirection}`).join(', ');
  const keySelect = q.order.map((k, i) => `(${k.expr})::text AS __k${i}`).join(', ');
  params.push(q.pageSize + 1);
  const fetched = await db.query<Row[]>(
    `SELECT ${q.select}, ${keySelect} ${q.from} ${where} ORDER BY ${orderBy} LIMIT $${params.length}`,
    params,
  );
  const more = fetched.length > q.pageSize;
  const page = fetched.slice(0, q.pageSize);
  if (backwards) page.reverse();
  const keyOf = (row: Row) => q.order.map((_, i) => (row[`__k${i}`] as string | null) ?? null);
  const first = page[0];
  const last = page[page.length - 1];
  const pageInfo: PageInfoT = {
    __typename: 'PageInfo',
    after: last && (backwards || more) ? encodeCursor(keyOf(last)) : null,
    before: first && (backwards ? more : !!q.after) ? encodeCursor(keyOf(first)) : null,
    page_size: q.pageSize,
  };
  if (q.withTotal !== false) {
    const [{ count }] = await db.query<{ count: string }[]>(
      `SELECT count(*) AS count FROM (SELECT 1 ${q.from} LIMIT ${TOTAL_COUNT_CAP}) t`,
      q.params,
    );
    pageInfo.total_count = Number(count);
  }
  for (const row of page) for (let i = 0; i < q.order.length; i++) delete row[`__k${i}`];
  return { rows: page, pageInfo };
}
