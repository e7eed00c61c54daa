import { createTestDatabase, installSlowAppends, SlowAppends, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { LogPosition, RecordedEvent } from '../event-store';
import { CatchUpSubscription } from '../subscription';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Two appends that commit in the reverse order of the positions they were given. A reader that
 * trusted the sequence alone would pass the later position, checkpoint it, and never see the
 * earlier one. Only a server has concurrent transactions (the embedded database runs one at a
 * time), so this runs on Postgres.
 *
 * The order is forced, not hoped for: the 'Slow' append waits, after its row is inserted, for an
 * advisory lock the test holds, and the test sees it waiting in pg_locks (installSlowAppends).
 */
const describeServer = describeWith('postgres');

describeServer('PostgreSQL event store: transactions committing out of order', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let slowAppends: SlowAppends;
  const meta = { environment: 'test', schema_version: 1 };
  const append = (type: string) =>
    // Each its own statement: appendMany is outside the group commit, whose one statement in flight
    // (ADR 0278) would queue the fast append behind the held one, as two processes would not.
    store
      .appendMany([{ streamId: `${type.toLowerCase()}-${randomUUID()}`, events: [{ id: randomUUID(), type, data: {}, metadata: meta }] }])
      .then(([result]) => result);

  /** readAll shows a commit once every older transaction on the server has finished. */
  const visible = (position: LogPosition) =>
    waitFor(async () => (await store.headPosition()) >= position, `position ${position} to become readable`);

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    store = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url });
    slowAppends = await installSlowAppends(db.url, 727274101);
  });
  afterAll(async () => {
    await slowAppends?.close();
    await store?.close();
    await db?.close();
  });

  it('delivers both events, the earlier position first, and nothing twice', async () => {
    const start = await store.headPosition();
    const received: RecordedEvent[] = [];
    const subscription = new CatchUpSubscription(store, {
      after: start,
      idlePollMs: 50,
      handle: async (events) => {
        received.push(...events);
      },
    });
    try {
      await slowAppends.hold();
      const slow = append('Slow');
      await slowAppends.waiting();
      const fast = await append('Fast');
      // The slow transaction is still open: nothing after `start` is readable, the fast commit included.
      expect((await store.readAll({ after: start })).events).toEqual([]);
      expect(received).toEqual([]);
      await slowAppends.release();
      const slowResult = await slow;
      expect(slowResult.globalPosition).toBeLessThan(fast.globalPosition); // positions were taken in one order...

      // ...commits happened in the other, and the reader still gets both, once each. An event
      // appended after them marks the end: once it is in, everything before it has been read.
      const end = await append('End');
      await waitFor(() => received.some((e) => e.streamId === end.streamId), 'the subscription to reach the end marker');
      expect(received.map((e) => e.type)).toEqual(['Slow', 'Fast', 'End']);
      expect(new Set(received.map((e) => e.id)).size).toBe(3);
    } finally {
      await slowAppends.release();
      await subscription.stop();
    }
  });

  it('is held back only by transactions of its own database, not by one open elsewhere on the server', async () => {
    const elsewhere = await createTestDatabase('postgres', { migrate: false });
    const busy = new Client({ connectionString: elsewhere.url });
    await busy.connect();
    try {
      // A write transaction open in another database: older than the append below, still running.
      await busy.query('BEGIN');
      await busy.query('CREATE TABLE busy (n int)');
      const appended = await append('Meanwhile');
      // The bound errs low for a moment when a transaction of another test's database ends while
      // it is computed (see headPosition), so wait for the head; held back by `busy`, it would
      // stay below the append for as long as `busy` is open, which is the whole wait.
      await waitFor(async () => (await store.headPosition()) === appended.position, 'the head to reach the append', 10_000);
      expect((await store.readAll({ after: '', maxCount: 1_000 })).events.at(-1)?.position).toBe(appended.position);
    } finally {
      await busy.query('ROLLBACK').catch(() => undefined);
      await busy.end();
      await elsewhere.close();
    }
  });

  it('shows why: ordering by the sequence alone would have skipped the late commit', async () => {
    // The naive reader: everything above the last seen global_position, no snapshot bound.
    const naive = async (after: bigint) =>
      (
        await db.database.pool.query<{ global_position: string; event_type: string }>(
          'SELECT global_position, event_type FROM es_events WHERE global_position > $1 ORDER BY global_position',
          [after.toString()],
        )
      ).rows;
    const { rows } = await db.database.pool.query<{ max: string | null }>('SELECT max(global_position) AS max FROM es_events');
    const before = BigInt(rows[0].max ?? 0);
    const start = await store.headPosition();
    await slowAppends.hold();
    const slow = append('Slow');
    try {
      await slowAppends.waiting();
      const fast = await append('Fast');
      const seenEarly = await naive(before);
      expect(seenEarly.map((r) => r.event_type)).toEqual(['Fast']);
      await slowAppends.release();
      await slow;
      const afterCheckpoint = await naive(BigInt(seenEarly[0].global_position));
      expect(afterCheckpoint.map((r) => r.event_type)).toEqual([]); // the Slow event is behind the checkpoint: lost
      await visible(fast.position);
    } finally {
      await slowAppends.release();
      await slow.catch(() => undefined);
    }
    // The store's own reader, from the same starting point, returns both, the slow one first.
    const page = await store.readAll({ after: start });
    expect(page.events.map((e) => e.type)).toEqual(['Slow', 'Fast']);
  });
});
