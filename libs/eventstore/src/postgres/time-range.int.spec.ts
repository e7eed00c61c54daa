import { createTestDatabase, databaseBackends, readAllWritten, requireBackend, testEnv, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { EventToAppend } from '../event-store';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Locating a time range in commit order (ADR 0241): the window's rows are found through the
 * created_at BRIN index, then the first and last of them in commit order are answered.
 */
requireBackend('postgres', !!testEnv.postgresUrl);

const meta = { environment: 'test', schema_version: 1, correlation_id: 'c1' };
const event = (n: number): EventToAppend => ({ id: randomUUID(), type: 'Happened', data: { n }, metadata: meta });
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

for (const backend of databaseBackends()) {
  describe(`PostgreSQL event store (${backend}): locating a time range`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    const sql = (text: string, params: unknown[] = []) => db.database.pool.query(text, params);

    beforeAll(async () => {
      db = await createTestDatabase(backend, { migrate: false });
      store = await PostgresEventStore.create({ pool: db.database.pool });
    });
    afterAll(async () => {
      await store?.close();
      await db?.close();
    });

    it('answers the first and last event of a time range in commit order, by the created_at index, and null for an empty one', async () => {
      const { rows: index } = await sql(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'es_events' AND indexname = 'es_events_created_at_brin'",
      );
      expect(index[0].indexdef).toContain('USING brin (created_at)');
      for (let i = 0; i < 6; i++) await store.append(`s-${i % 2}`, [event(i)]);
      // Minute i for event i (times set behind the store's back: only the locator reads them here).
      await sql(
        "UPDATE es_events SET created_at = $1::timestamptz + (global_position - (SELECT min(global_position) FROM es_events)) * interval '1 minute'",
        [at(0).toISOString()],
      );
      const all = await readAllWritten(store);
      const located = await store.locateRange({ times: { from: at(2), to: at(4) } });
      expect(located).toEqual({ first: all[2].position, last: all[4].position });
      // `to` covers its whole millisecond; both ends included.
      expect(await store.locateRange({ times: { from: at(5), to: new Date(at(5).getTime()) } })).toEqual({
        first: all[5].position,
        last: all[5].position,
      });
      expect(await store.locateRange({ times: { from: at(30), to: at(40) } })).toBeNull();
      // With global positions as well, both bound the window.
      const narrowed = await store.locateRange({
        times: { from: at(0), to: at(5) },
        globalPositions: { from: all[1].globalPosition, to: all[3].globalPosition },
      });
      expect(narrowed).toEqual({ first: all[1].position, last: all[3].position });
    });
  });
}
