import { DataSource } from 'typeorm';

const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Runs one autocommit statement again when Postgres aborted it to break a deadlock (or a
 * serialization failure): the aborted statement wrote nothing, so running it again is safe.
 * Lease statements lock their rows in key order, and so do the projections that write the same
 * rows (ADR 0134); this stays for any other writer that takes rows in another order.
 */
export async function retryingDeadlocks<T>(op: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (error) {
      const code =
        (error as { code?: string; driverError?: { code?: string } }).code ??
        (error as { driverError?: { code?: string } }).driverError?.code;
      if (attempt >= attempts || !code || !RETRYABLE.has(code)) throw error;
      // A short random pause lets the other side (a projection batch) commit first, so the
      // next try does not meet it in the same cycle again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * Math.min(attempt, 5)));
    }
  }
}

/** `UPDATE ... RETURNING` answers `[rows, count]` through TypeORM's postgres driver. */
export const returnedRows = <T>(result: unknown): T[] =>
  Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]);

/** A read-model table whose rows are due work, keyed by (environment, key column). */
export interface LeasedTable {
  table: string;
  /** The second key column and its SQL type (the first is `environment`, text). */
  key: { column: string; type: 'text' | 'uuid' };
  /** When a row is due (a timestamptz column). */
  due: string;
  /** Which rows have work at all (a SQL condition on the table's columns). */
  pending: string;
}

export interface LeasedRow {
  environment: string;
  key: string;
}

/**
 * Rows of a read model leased as timers (ADR 0142, ADR 0200): a claim takes due rows no live lease
 * holds (one statement, FOR UPDATE SKIP LOCKED inside, so concurrent claims take disjoint rows)
 * and stamps them with `claimed_until`; no transaction is held while the work runs (the embedded
 * database has one connection). A worker that dies leaves its lease to expire, and the rows are
 * then claimed again. Renewals and releases only touch a lease still held (the same
 * `claimed_until`), so a lease another worker took meanwhile is never ended by the first.
 */
export class LeasedRows {
  constructor(
    private readonly db: DataSource,
    private readonly table: LeasedTable,
    readonly leaseMs = 30_000,
  ) {}

  /** Claims up to `limit` due rows, earliest first; `extra` columns are returned with the keys. */
  async claim<X extends Record<string, unknown> = Record<string, never>>(
    now: Date,
    limit: number,
    extra: readonly (keyof X & string)[] = [],
  ): Promise<{ lease: Date; rows: (LeasedRow & X)[] }> {
    const { table, key, due, pending } = this.table;
    const lease = new Date(now.getTime() + this.leaseMs);
    const rows = returnedRows<Record<string, unknown>>(
      await this.db.query(
        `UPDATE ${table} t SET claimed_until = $2
          WHERE (t.environment, t.${key.column}) IN (
            SELECT environment, ${key.column} FROM ${table}
             WHERE (${pending}) AND ${due} <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
             ORDER BY ${due} LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING ${['environment', `${key.column} AS key`, ...extra].map((c) => `t.${c}`).join(', ')}`,
        [now, lease, limit],
      ),
    );
    return { lease, rows: rows as (LeasedRow & X)[] };
  }

  /** Extends a lease still held; undefined when another worker took the row (this one must stop). */
  async renew(row: LeasedRow, lease: Date, now: Date): Promise<Date | undefined> {
    const { table, key } = this.table;
    const next = new Date(now.getTime() + this.leaseMs);
    const rows = returnedRows<unknown>(
      await retryingDeadlocks(() =>
        this.db.query(
          `UPDATE ${table} SET claimed_until = $4 WHERE environment = $1 AND ${key.column} = $2 AND claimed_until = $3 RETURNING 1`,
          [row.environment, row.key, lease, next],
        ),
      ),
    );
    return rows.length ? next : undefined;
  }

  /** Ends the lease of rows still held under `lease` (locked in key order first: ADR 0134). */
  async release(rows: readonly LeasedRow[], lease: Date): Promise<void> {
    if (rows.length === 0) return;
    const { table, key } = this.table;
    await retryingDeadlocks(() =>
      this.db.query(
        `WITH locked AS (SELECT environment, ${key.column} FROM ${table}
                          WHERE (environment, ${key.column}) IN (SELECT * FROM unnest($1::text[], $2::${key.type}[])) AND claimed_until = $3
                          ORDER BY environment, ${key.column} FOR UPDATE)
         UPDATE ${table} t SET claimed_until = NULL FROM locked l
          WHERE t.environment = l.environment AND t.${key.column} = l.${key.column} AND t.claimed_until = $3`,
        [rows.map((r) => r.environment), rows.map((r) => r.key), lease],
      ),
    );
  }

  /** When the next row is due, if any (a leased one when its lease ends). */
  async nextDue(): Promise<Date | undefined> {
    const { table, due, pending } = this.table;
    const rows = await this.db.query<{ at: Date | null }[]>(
      `SELECT min(GREATEST(${due}, claimed_until)) AS at FROM ${table} WHERE ${pending}`,
    );
    return rows[0]?.at ?? undefined;
  }
}
