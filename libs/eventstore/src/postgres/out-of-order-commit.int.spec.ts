import { createTestDatabase, requireBackend, testEnv, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { RecordedEvent } from '../event-store';
import { CatchUpSubscription } from '../subscription';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Two appends that commit in the reverse order of the positions they were given. A reader that
 * trusted the sequence alone would pass the later position, checkpoint it, and never see the
 * earlier one. Only a server has concurrent transactions (the embedded database runs one at a
 * time), so this runs on Postgres.
 */
requireBackend('postgres', !!testEnv.postgresUrl);
const describeServer = testEnv.postgresUrl ? describe : describe.skip;

describeServer('PostgreSQL event store: transactions committing out of order', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const meta = { environment: 'test', schema_version: 1 };

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    store = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url });
    // Holds the first transaction open after its event row (and its position) exist.
    await db.database.pool.query(`
      CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.event_type = 'Slow' THEN PERFORM pg_sleep(0.6); END IF; RETURN NEW; END $$;
      CREATE TRIGGER slow_commit AFTER INSERT ON es_events FOR EACH ROW EXECUTE FUNCTION slow_commit();`);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
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
      const slow = store.append(`slow-${randomUUID()}`, [{ id: randomUUID(), type: 'Slow', data: {}, metadata: meta }]);
      await new Promise((r) => setTimeout(r, 150)); // the slow append now holds the lower position
      const fast = await store.append(`fast-${randomUUID()}`, [{ id: randomUUID(), type: 'Fast', data: {}, metadata: meta }]);
      const slowResult = await (async () => {
        // While the slow transaction is open the fast one must stay invisible to readers.
        await new Promise((r) => setTimeout(r, 200));
        expect(received.map((e) => e.type)).toEqual([]);
        return slow;
      })();
      expect(slowResult.globalPosition).toBeLessThan(fast.globalPosition); // positions were taken in one order...
      const deadline = Date.now() + 10_000;
      while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 200));
      // ...commits happened in the other, and the reader still got both, once each.
      expect(received.map((e) => e.type)).toEqual(['Slow', 'Fast']);
      expect(new Set(received.map((e) => e.id)).size).toBe(2);
    } finally {
      await subscription.stop();
    }
  });

  it('shows why: ordering by the sequence alone would have skipped the late commit', async () => {
    // The naive reader: everything above the last seen global_position, no snapshot bound.
    const naive = async (after: bigint) =>
      (await db.database.pool.query<{ global_position: string; event_type: string }>(
        'SELECT global_position, event_type FROM es_events WHERE global_position > $1 ORDER BY global_position',
        [after.toString()],
      )).rows;
    const { rows } = await db.database.pool.query<{ max: string | null }>('SELECT max(global_position) AS max FROM es_events');
    const before = BigInt(rows[0].max ?? 0);
    const slow = store.append(`slow-${randomUUID()}`, [{ id: randomUUID(), type: 'Slow', data: {}, metadata: meta }]);
    await new Promise((r) => setTimeout(r, 150));
    await store.append(`fast-${randomUUID()}`, [{ id: randomUUID(), type: 'Fast', data: {}, metadata: meta }]);
    const seenEarly = await naive(before);
    expect(seenEarly.map((r) => r.event_type)).toEqual(['Fast']);
    await slow;
    const afterCheckpoint = await naive(BigInt(seenEarly[0].global_position));
    expect(afterCheckpoint.map((r) => r.event_type)).toEqual([]); // the Slow event is behind the checkpoint: lost
    // The store's own reader, from the same starting point, returns both.
    const page = await store.readAll({ after: '' });
    expect(page.events.slice(-2).map((e) => e.type)).toEqual(['Slow', 'Fast']);
  });
});
