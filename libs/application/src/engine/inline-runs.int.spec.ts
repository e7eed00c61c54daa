import { PostgresEventStore } from '@notify/eventstore';
import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { RECIPIENT_EVENT_TYPES, recipientFreshnessSql } from './inline-runs';

/** The freshness check of runs executed with their trigger, on the real log and checkpoints (ADR 0258). */
for (const backend of databaseBackends())
  describe(`recipient read models freshness on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let fresh: string;
    const projections = [
      { name: 'users', types: ['UserIdentified'] },
      { name: 'preferences', types: ['PreferenceSetUpdated'] },
    ];

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({ pool: db.database.pool, headTypes: RECIPIENT_EVENT_TYPES });
      fresh = recipientFreshnessSql(projections, (type) => store.typeHeadSql(type))!;
    });
    afterAll(() => db.close());

    const isFresh = async () => (await db.database.pool.query<{ fresh: boolean }>(`SELECT ${fresh} AS fresh`)).rows[0].fresh;
    const checkpoint = (name: string, position: string) =>
      db.database.pool.query(
        `INSERT INTO projection_checkpoints (name, version, position) VALUES ($1, 1, $2) ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position`,
        [name, position],
      );
    const append = async (type: string) =>
      (
        await store.append(`s-${randomUUID()}`, [
          { id: randomUUID(), type, data: {}, metadata: { environment: 'development', schema_version: 1 } },
        ])
      ).position;

    it('is true only while every projection has applied the newest event of its own types', async () => {
      await checkpoint('users', '');
      await checkpoint('preferences', '');
      expect(await isFresh()).toBe(true); // no recipient event yet

      const identified = await append('UserIdentified');
      expect(await isFresh()).toBe(false);
      await checkpoint('users', identified);
      expect(await isFresh()).toBe(true);

      // Other events, however many, do not make the read models behind.
      const later = await append('WorkflowTriggered');
      await append('RunEnqueued');
      expect(await isFresh()).toBe(true);

      // Preferences behind their newest event; the users projection past it does not stand for them.
      const preferences = await append('PreferenceSetUpdated');
      await checkpoint('users', preferences);
      expect(await isFresh()).toBe(false);
      await checkpoint('preferences', later);
      expect(await isFresh()).toBe(false);
      await checkpoint('preferences', preferences);
      expect(await isFresh()).toBe(true);
    });

    it('reads the newest event of a type through the partial index, in log order', async () => {
      const first = await append('ObjectSet');
      const second = await append('ObjectSet');
      expect(second > first).toBe(true);
      const { rows } = await db.database.pool.query<{ head: string }>(`SELECT ${store.typeHeadSql('ObjectSet')} AS head`);
      expect(rows[0].head).toBe(second);
      expect(second).toMatch(/^[0-9a-f]{32}$/);
      const plan = await db.database.pool.query(`EXPLAIN SELECT ${store.typeHeadSql('ObjectSet')}`);
      expect(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toMatch(/es_events_type_heads_/);
      expect(store.typeHeadSql('RunEnqueued')).toBeUndefined();
    });
  });
