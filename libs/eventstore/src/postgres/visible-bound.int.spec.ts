import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from './postgres-event-store';

/**
 * es_visible_bound() can err low for a moment (a transaction of another database that ended
 * while the bound was computed counts as open). A read must still never answer less than an
 * earlier read of the same store did: the shared log reader compares itself with the store, and
 * an auditor paging the log twice must not see an event vanish. The test stands the bound in for
 * one it can lower, so the moment is not left to chance.
 */
for (const backend of databaseBackends()) {
  describe(`PostgreSQL event store on ${backend}: a visible bound that errs low`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    const meta = { environment: 'test', schema_version: 1 };
    const append = async (type = 'Bounded') => {
      const id = randomUUID();
      const { position } = await store.append(`bound-${randomUUID()}`, [{ id, type, data: {}, metadata: meta }]);
      return { id, position };
    };
    const setLow = (low: boolean) => db.database.pool.query('UPDATE test_bound SET low = $1', [low]);
    const ids = async (options: Parameters<PostgresEventStore['readAll']>[0] = {}) =>
      (await store.readAll(options)).events.map((e) => e.id);

    beforeAll(async () => {
      db = await createTestDatabase(backend, { migrate: false });
      store = await PostgresEventStore.create({ pool: db.database.pool });
      await db.database.pool.query('CREATE TABLE test_bound (low boolean NOT NULL)');
      await db.database.pool.query('INSERT INTO test_bound VALUES (false)');
      // Nothing else runs on this database, so the snapshot's xmax is the true bound; "low" is
      // the moment it errs, below every transaction of the test.
      await db.database.pool.query(`CREATE OR REPLACE FUNCTION es_visible_bound() RETURNS xid8 LANGUAGE sql STABLE AS $fn$
        SELECT CASE WHEN (SELECT low FROM test_bound) THEN '1'::xid8 ELSE pg_snapshot_xmax(pg_current_snapshot()) END
      $fn$`);
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });

    it('answers at least what it answered before, and nothing it has not confirmed since', async () => {
      const first = [await append(), await append('Other'), await append()];
      const before = await ids();
      expect(before).toEqual(first.map((e) => e.id));
      const head = await store.headPosition();
      expect(head).toBe(first[2].position);

      await setLow(true);
      expect(await ids()).toEqual(before);
      expect(await ids({ filter: { eventTypes: ['Other'] } })).toEqual([before[1]]);
      expect(await ids({ after: first[0].position, maxCount: 1 })).toEqual([before[1]]);
      expect(await store.headPosition()).toBe(head);

      // Appended while the bound is low: not readable yet, since nothing says older writers are done.
      const later = await append();
      expect(await ids()).toEqual(before);

      await setLow(false);
      expect(await ids()).toEqual([...before, later.id]);
      expect(await store.headPosition()).toBe(later.position);
    });
  });
}
