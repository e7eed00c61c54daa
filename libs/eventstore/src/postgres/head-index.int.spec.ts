import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PostgresEventStore } from './postgres-event-store';
import { encodedPositionSql, ensureEventStoreSchema } from './schema';

/**
 * The heads' index of a long log is built CONCURRENTLY (ADR 0272): appends go on while it is
 * built, a second process booting meanwhile waits for it, and a failed build's invalid leftover is
 * built again. "Long" is 5 events here (the option), so the log stays small.
 */
const describeServer = describeWith('postgres');

const meta = { environment: 'test', schema_version: 1 };
const TYPES = ['HeadA', 'HeadB'];
const options = { concurrentHeadIndexFrom: 5, buildPollMs: 10 };
const positionSql = encodedPositionSql('es_events');

describeServer('PostgreSQL event store: the heads index on a long log', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let holder: Client;

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false, poolSize: 6 });
    store = await PostgresEventStore.create({ pool: db.database.pool });
    for (let i = 0; i < 10; i++) await append(i % 2 ? 'HeadA' : 'Other');
    holder = new Client({ connectionString: db.url });
    await holder.connect();
  });
  // A failed test must not leave the snapshot open: every later build would wait for it.
  afterEach(() => holder.query('ROLLBACK'));
  afterAll(async () => {
    await holder?.end();
    await store?.close();
    await db?.close();
  });

  const append = (type: string) =>
    store.append(`s-${randomUUID()}`, [{ id: randomUUID(), type, data: {}, metadata: meta }]).then((r) => r.position);
  const headIndexes = async () =>
    (
      await db.database.pool.query<{ name: string; valid: boolean }>(
        `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE c.relname LIKE 'es_events_type_heads_%' ORDER BY 1`,
      )
    ).rows;
  /** The query of a store told of the head types: the newest position of one type, by the heads' index. */
  const headProbe = async (type: string) => {
    const heads = await PostgresEventStore.create({ pool: db.database.pool, headTypes: TYPES, ensureSchema: false });
    await heads.close();
    return `SELECT ${heads.typeHeadSql(type)} AS head`;
  };
  /** The plan and rows of a query made to use an index where it can (the log is a few rows long). */
  const withoutSeqScans = async (sql: string) => {
    const client = await db.database.pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = (await client.query(`EXPLAIN ${sql}`)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      return { plan, rows: (await client.query(sql)).rows };
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  };
  /** A CREATE INDEX CONCURRENTLY of this database waiting for a lock (an older snapshot's transaction). */
  const buildWaiting = async () =>
    Number(
      (
        await db.database.pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND query LIKE 'CREATE INDEX CONCURRENTLY%' AND wait_event_type = 'Lock'`,
        )
      ).rows[0].n,
    ) > 0;

  it('is built while appends go on, and a second booting process waits for it to be valid', async () => {
    // An open transaction with a snapshot from before the build: the build waits for it to end.
    await holder.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await holder.query('SELECT 1'); // takes the snapshot, and no lock on the log (the DDL's ALTERs would wait for one)
    let firstDone = false;
    let secondDone = false;
    const first = ensureEventStoreSchema(db.database.pool, TYPES, options).then(() => (firstDone = true));
    await waitFor(buildWaiting, 'the concurrent build to wait for the older snapshot');
    const second = ensureEventStoreSchema(db.database.pool, TYPES, options).then(() => (secondDone = true));

    // While the index is being built, an append of one of its types commits and reads back.
    const during = await append('HeadB');
    const logged = await db.database.pool.query(`SELECT event_type FROM es_events WHERE ${positionSql} = $1`, [during]);
    expect(logged.rows).toEqual([{ event_type: 'HeadB' }]);
    expect(await headIndexes()).toEqual([expect.objectContaining({ valid: false })]);
    expect(firstDone).toBe(false);
    expect(secondDone).toBe(false);

    await holder.query('COMMIT');
    await Promise.all([first, second]);
    const [index] = await headIndexes();
    expect(index.valid).toBe(true);
    // The index holds what was appended during its build: the head probe, made to use it, finds it.
    const { plan, rows } = await withoutSeqScans(await headProbe('HeadB'));
    expect(plan).toContain(index.name);
    expect(rows).toEqual([{ head: during }]);
  });

  it('builds again what a failed build left invalid', async () => {
    const [index] = await headIndexes();
    await db.database.pool.query('UPDATE pg_index SET indisvalid = false WHERE indexrelid = $1::regclass', [index.name]);
    expect(await headIndexes()).toEqual([{ name: index.name, valid: false }]);
    await ensureEventStoreSchema(db.database.pool, TYPES, options);
    expect(await headIndexes()).toEqual([{ name: index.name, valid: true }]);
    expect((await withoutSeqScans(await headProbe('HeadA'))).plan).toContain(index.name);
  });

  it('replaces the index of another list of types, built plainly on a log shorter than the option', async () => {
    const before = (await headIndexes()).map((i) => i.name);
    // A long log by the option's measure is built concurrently; a threshold above the log's length builds it plainly.
    await ensureEventStoreSchema(db.database.pool, ['HeadC'], { concurrentHeadIndexFrom: 1_000_000 });
    const after = await headIndexes();
    expect(after).toHaveLength(1);
    expect(after[0].valid).toBe(true);
    expect(before).not.toContain(after[0].name);
  });
});
