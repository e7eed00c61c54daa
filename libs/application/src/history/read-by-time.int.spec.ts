import { PostgresEventStore } from '@notify/eventstore';
import { createTestDatabase, installSlowAppends, SlowAppends, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { EventHistory } from './event-history';
import { decodeHistoryCursor } from './log-reading';

/**
 * A log read by time starts where the range begins in commit order (ADR 0241). A transaction
 * still open when the read starts, begun after `since`, commits its events at positions before
 * the range's first visible event: the read must not have started past them, or a reader paging
 * on with the cursor never sees them. The open transaction is forced, not hoped for: the 'Slow'
 * append is held after its row is inserted until the test lets it go (installSlowAppends). Only a
 * server has concurrent transactions, so this runs on Postgres.
 */
const describeServer = describeWith('postgres');

describeServer('event history: a log read by time while a transaction of the range is open', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let slowAppends: SlowAppends;
  let history: EventHistory;
  const meta = { environment: 'test', schema_version: 1 };
  const append = (type: string) =>
    // Each its own statement: appendMany is outside the group commit, whose one statement in flight
    // (ADR 0278) would queue the fast append behind the held one, as two processes would not.
    store
      .appendMany([{ streamId: `${type.toLowerCase()}-${randomUUID()}`, events: [{ id: randomUUID(), type, data: {}, metadata: meta }] }])
      .then(([result]) => result);

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    store = await PostgresEventStore.create({ pool: db.database.pool });
    history = new EventHistory(store);
    slowAppends = await installSlowAppends(db.url, 727274102);
  });
  afterAll(async () => {
    await slowAppends?.close();
    await store?.close();
    await db?.close();
  });

  it('starts no later than the open transaction, so paging on with the cursor finds its events', async () => {
    await append('Before');
    // `since` on the database's clock, after the event above; the appends below begin after it.
    const since = (await slowAppends.client.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0].t;
    await waitFor(
      async () =>
        (await slowAppends.client.query<{ past: boolean }>('SELECT clock_timestamp() > $1::timestamptz AS past', [since])).rows[0].past,
      "the database's clock to pass `since`",
    );
    await slowAppends.hold();
    try {
      const slow = append('Slow');
      await slowAppends.waiting();
      const fast = await append('Fast');

      const first = await history.readLog({ limit: 100, refine: { since } });
      // Neither is readable yet: the fast append committed, but after the still-open slow one.
      expect(first.entries.map((e) => e.type)).toEqual([]);

      await slowAppends.release();
      await slow;
      await waitFor(async () => (await store.headPosition()) >= fast.position, 'both appends to be readable');

      const cursor = decodeHistoryCursor(first.page_info.after!);
      expect(cursor?.kind).toBe('log');
      const next = await history.readLog({ after: cursor?.kind === 'log' ? cursor.position : undefined, limit: 100, refine: { since } });
      expect(next.entries.map((e) => e.type)).toEqual(['Slow', 'Fast']);
    } finally {
      await slowAppends.release();
    }
  });
});
