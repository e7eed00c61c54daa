import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { LogPosition } from '../event-store';
import { SharedLogReader } from '../shared-log-reader';
import { PostgresEventStore } from './postgres-event-store';

/**
 * How often the process's log tail reads the database (statements per trigger, issue 19): an
 * append of this store wakes it with the append's position, so one read that reaches that
 * position is enough; its own NOTIFY echo is not taken for another process's append, another
 * store's is. An append held out of sight by an older open transaction is still read once that
 * transaction ends, with no further append or notification. Needs concurrent transactions and
 * LISTEN, so it runs on Postgres.
 */
const describeServer = describeWith('postgres');

describeServer('PostgreSQL event store: the shared log tail', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let other: PostgresEventStore;
  let holder: Client;
  let reader: SharedLogReader;
  let reads = 0;
  const meta = { environment: 'test', schema_version: 1 };
  const append = (s: PostgresEventStore = store) =>
    s.append(`tail-${randomUUID()}`, [{ id: randomUUID(), type: 'Tailed', data: {}, metadata: meta }]);
  /** The newest position known to be in the reader's window: reads after it are answered from memory. */
  let seen: LogPosition;
  const has = async (position: LogPosition) => (await reader.readAll({ after: seen })).scannedTo >= position;
  const buffered = async (position: LogPosition) => {
    await waitFor(() => has(position), `position ${position} in the reader's window`);
    seen = position;
  };

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    store = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url });
    other = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url, ensureSchema: false });
    holder = new Client({ connectionString: db.url });
    await holder.connect();
    const readAll = store.readAll.bind(store);
    store.readAll = (options) => {
      reads++;
      return readAll(options);
    };
    reader = new SharedLogReader(store);
    const first = await append();
    await waitFor(async () => (await reader.readAll({ after: '' })).scannedTo >= first.position, 'the first append in the reader');
    seen = first.position;
  });
  afterAll(async () => {
    await reader.stop();
    await holder.end();
    await other.close();
    await store.close();
    await db.close();
  });

  it("reads an append of its own store about once, and tells another store's appends from its own echo", async () => {
    const hints: (LogPosition | undefined)[] = [];
    const unlisten = store.onAppended((p) => hints.push(p));
    try {
      const before = reads;
      for (let i = 0; i < 10; i++) await buffered((await append()).position);
      // Before: a read that found something was followed by another at once and more after
      // 5, 10, 20 ms (at least two per append). A read in between (the tail's idle second, a
      // commit seen late) is allowed for.
      expect(reads - before).toBeLessThanOrEqual(15);
      expect(hints.length).toBeGreaterThanOrEqual(10);
      expect(hints.every((p) => p !== undefined)).toBe(true);
      // Another store object (another process) appends: its NOTIFY reaches this one as a hint
      // without a position, and the tail reads it.
      const elsewhere = await append(other);
      await waitFor(() => hints.includes(undefined), 'the other store’s notification');
      await buffered(elsewhere.position);
    } finally {
      unlisten();
    }
  });

  it('wakes no reader for a quiet append; the next append readers are woken for brings both into the window', async () => {
    const hints: (LogPosition | undefined)[] = [];
    const unlisten = store.onAppended((p) => hints.push(p));
    try {
      const from = seen;
      const quiet = await store.append(`tail-${randomUUID()}`, [{ id: randomUUID(), type: 'Tailed', data: {}, metadata: meta }], {
        quiet: true,
      });
      // The hint of an append is given before the append answers: none came for this one.
      expect(hints).toEqual([]);
      const loud = await append();
      expect(hints).toEqual([loud.position]);
      await buffered(loud.position);
      const window = await reader.readAll({ after: from });
      expect(window.events.map((e) => e.position)).toEqual([quiet.position, loud.position]);
    } finally {
      unlisten();
    }
  });

  it('reads an append held back by an older open transaction once that ends, without another hint', async () => {
    await holder.query('BEGIN');
    try {
      await holder.query('SELECT pg_current_xact_id()');
      const held = await append();
      // Out of sight while the older transaction is open.
      expect(await has(held.position)).toBe(false);
      await holder.query('COMMIT');
      await buffered(held.position);
    } catch (error) {
      await holder.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
});
