import { PostgresEventStore } from '@notify/eventstore';
import { createTestDatabase, requireBackend, testEnv, TestDatabase, waitFor } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { EventHistory } from './event-history';
import { decodeHistoryCursor } from './log-reading';

/**
 * A log read by time starts where the range begins in commit order (ADR 0241). A transaction
 * still open when the read starts, begun after `since`, commits its events at positions before
 * the range's first visible event: the read must not have started past them, or a reader paging
 * on with the cursor never sees them. The open transaction is forced, not hoped for: a trigger
 * holds the 'Slow' append after its row is inserted until the test lets it go. Only a server has
 * concurrent transactions, so this runs on Postgres.
 */
requireBackend('postgres', !!testEnv.postgresUrl);
const describeServer = testEnv.postgresUrl ? describe : describe.skip;

const HOLD = 727274102;

describeServer('event history: a log read by time while a transaction of the range is open', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let holder: Client;
  let history: EventHistory;
  const meta = { environment: 'test', schema_version: 1 };
  const append = (type: string) =>
    store.append(`${type.toLowerCase()}-${randomUUID()}`, [{ id: randomUUID(), type, data: {}, metadata: meta }]);

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    store = await PostgresEventStore.create({ pool: db.database.pool });
    history = new EventHistory(store);
    holder = new Client({ connectionString: db.url });
    await holder.connect();
    await holder.query(`
      CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.event_type = 'Slow' THEN PERFORM pg_advisory_xact_lock(${HOLD}); END IF; RETURN NEW; END $$;
      CREATE TRIGGER slow_commit AFTER INSERT ON es_events FOR EACH ROW EXECUTE FUNCTION slow_commit();`);
  });
  afterAll(async () => {
    await holder?.end();
    await store?.close();
    await db?.close();
  });

  it('starts no later than the open transaction, so paging on with the cursor finds its events', async () => {
    await append('Before');
    // `since` on the database's clock, after the event above; the appends below begin after it.
    const since = (await holder.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0].t;
    await waitFor(
      async () => (await holder.query<{ past: boolean }>('SELECT clock_timestamp() > $1::timestamptz AS past', [since])).rows[0].past,
      "the database's clock to pass `since`",
    );
    await holder.query('SELECT pg_advisory_lock($1)', [HOLD]);
    let released = false;
    try {
      const slow = append('Slow');
      await waitFor(
        async () =>
          (
            await holder.query(
              `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1
                 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
              [HOLD],
            )
          ).rowCount === 1,
        'the slow append to wait with its row inserted',
      );
      const fast = await append('Fast');

      const first = await history.readLog({ limit: 100, refine: { since } });
      // Neither is readable yet: the fast append committed, but after the still-open slow one.
      expect(first.entries.map((e) => e.type)).toEqual([]);

      await holder.query('SELECT pg_advisory_unlock($1)', [HOLD]);
      released = true;
      await slow;
      await waitFor(async () => (await store.headPosition()) >= fast.position, 'both appends to be readable');

      const cursor = decodeHistoryCursor(first.page_info.after!);
      expect(cursor?.kind).toBe('log');
      const next = await history.readLog({ after: cursor?.kind === 'log' ? cursor.position : undefined, limit: 100, refine: { since } });
      expect(next.entries.map((e) => e.type)).toEqual(['Slow', 'Fast']);
    } finally {
      if (!released) await holder.query('SELECT pg_advisory_unlock($1)', [HOLD]);
    }
  });
});
