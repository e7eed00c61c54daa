import { LogPosition, LogReader, START } from '@notify/eventstore';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { handles, Projection } from './projection';
import { ReadAhead } from './read-ahead';

/**
 * `projections rebuild --verify` (issue 18): replays the log into shadow copies of a projection's
 * tables, pins the live projection at the position the copies reached, and compares the two row
 * by row. The live read model keeps serving (and following the log) while the copies are built;
 * it waits only while the last stretch is applied and the tables are compared.
 *
 * The copies live in a schema of their own that is first on the transaction's search_path, so
 * the projection's unqualified SQL writes them without knowing (ADR 0139). A replay announces
 * nothing: `notify.replay` is on in its transactions, and announcements check it.
 */

export interface TableDifference {
  table: string;
  /** Rows the live table has and the rebuilt one does not, and the other way round. */
  onlyLive: number;
  onlyRebuilt: number;
  /** A few of those rows, as JSON. */
  samples: { side: 'live' | 'rebuilt'; row: Record<string, unknown> }[];
}

export interface VerifyReport {
  projection: string;
  /** The log position both sides were compared at. */
  position: LogPosition;
  events: number;
  ms: number;
  tables: { table: string; rows: number }[];
  differences: TableDifference[];
}

export interface VerifyOptions {
  batchSize: number;
  onProgress?: (progress: { events: number; position: LogPosition }) => void;
  /** How often to try pinning a live projection that keeps moving before giving up. */
  attempts?: number;
  samples?: number;
}

/** Whether a transaction is a replay that must not announce anything to listeners. */
export const REPLAY_SETTING = 'notify.replay';

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export async function verifyRebuild(
  store: LogReader,
  db: DataSource,
  projection: Projection,
  options: VerifyOptions,
): Promise<VerifyReport> {
  const started = Date.now();
  const [{ schema: live }] = await db.query<{ schema: string }[]>('SELECT current_schema() AS schema');
  const shadow = `verify_${randomBytes(6).toString('hex')}`;
  await db.query(`CREATE SCHEMA ${quote(shadow)}`);
  // The next page is read while this one is applied to the copies.
  const readAhead = new ReadAhead((after) =>
    store.readAll({ after, maxCount: options.batchSize, filter: projection.filter, reader: 'verify' }),
  );
  try {
    for (const table of projection.tables)
      await db.query(`CREATE TABLE ${quote(shadow)}.${quote(table)} (LIKE ${quote(live)}.${quote(table)} INCLUDING ALL)`);
    const inShadow = async (tx: EntityManager) => {
      await tx.query(`SELECT set_config('search_path', $1, true), set_config($2, 'on', true)`, [
        `${quote(shadow)}, ${quote(live)}`,
        REPLAY_SETTING,
      ]);
    };
    let position: LogPosition = START;
    let events = 0;
    /** Applies the log after `position` up to and including `target` to the copies. */
    const catchUp = async (target: LogPosition) => {
      while (position < target) {
        const page = await readAhead.page(position);
        const batch = page.events.filter((e) => e.position <= target && handles(projection, e));
        if (batch.length)
          await db.transaction(async (tx) => {
            await inShadow(tx);
            await projection.apply(batch, tx);
          });
        events += batch.length;
        if (page.scannedTo <= position) throw new Error(`the log ends at ${position}, before the live projection's position ${target}`);
        position = page.scannedTo > target ? target : page.scannedTo;
        options.onProgress?.({ events, position });
      }
    };
    const livePosition = async (tx: DataSource | EntityManager, lock: boolean) =>
      (
        await tx.query<{ position: string }[]>(`SELECT position FROM projection_checkpoints WHERE name = $1 ${lock ? 'FOR UPDATE' : ''}`, [
          projection.name,
        ])
      )[0]?.position ?? START;
    for (let attempt = 0; attempt < (options.attempts ?? 50); attempt++) {
      await catchUp(await livePosition(db, false));
      // Pin the live projection (its runner skips a locked checkpoint) and compare, if it has
      // not moved past the copies meanwhile; otherwise catch up again.
      const report = await db.transaction(async (tx) => {
        if ((await livePosition(tx, true)) !== position) return undefined;
        const tables: VerifyReport['tables'] = [];
        const differences: TableDifference[] = [];
        for (const table of projection.tables) {
          const l = `${quote(live)}.${quote(table)}`;
          const s = `${quote(shadow)}.${quote(table)}`;
          const rows = Number((await tx.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${l}`))[0].n);
          tables.push({ table, rows });
          const only = (a: string, b: string) =>
            `SELECT r FROM (SELECT to_jsonb(x) AS r FROM ${a} x EXCEPT ALL SELECT to_jsonb(y) FROM ${b} y) d`;
          const [counts] = await tx.query<{ live: string; rebuilt: string }[]>(
            `SELECT (SELECT count(*) FROM (${only(l, s)}) a) AS live, (SELECT count(*) FROM (${only(s, l)}) b) AS rebuilt`,
          );
          if (counts.live === '0' && counts.rebuilt === '0') continue;
          const n = options.samples ?? 3;
          const sample = async (side: 'live' | 'rebuilt', sql: string) =>
            (await tx.query<{ r: Record<string, unknown> }[]>(`${sql} LIMIT ${n}`)).map((x) => ({ side, row: x.r }));
          differences.push({
            table,
            onlyLive: Number(counts.live),
            onlyRebuilt: Number(counts.rebuilt),
            samples: [...(await sample('live', only(l, s))), ...(await sample('rebuilt', only(s, l)))],
          });
        }
        return { projection: projection.name, position, events, ms: Date.now() - started, tables, differences };
      });
      if (report) return report;
    }
    throw new Error(`${projection.name} kept moving: it could not be pinned at the position its rebuild reached`);
  } finally {
    await readAhead.close();
    await db.query(`DROP SCHEMA ${quote(shadow)} CASCADE`);
  }
}
