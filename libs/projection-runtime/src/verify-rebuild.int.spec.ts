import { PostgresEventStore } from '@notify/eventstore';
import { usersProjection } from '@notify/projections/users';
import { createTestDatabase, databaseBackends, TestDatabase, waitFor } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { ProjectionRuntime } from './projection-runtime';

const identified = (environment: string, userId: string, properties: Record<string, unknown>, at: string) => ({
  id: randomUUID(),
  type: 'UserIdentified',
  data: { user_id: userId, properties, identified_at: at },
  metadata: { environment, schema_version: 1 },
});

/**
 * A verifying rebuild (issue 18) replays the log into shadow tables while the live read model
 * keeps running, and reports exactly the rows that differ: none for a read model the log
 * explains, the edited and the deleted rows otherwise.
 */
for (const backend of databaseBackends()) {
  describe(`projections rebuild --verify on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let runtime: ProjectionRuntime;

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({ pool: db.database.pool });
      runtime = new ProjectionRuntime(store, db.database.dataSource, [usersProjection], { batchSize: 7 });
      for (let i = 0; i < 30; i++)
        await store.append(`user-dev-u${i % 10}`, [
          identified(
            'dev',
            `u${i % 10}`,
            { name: `User ${i}`, plan: i % 2 ? 'pro' : 'free' },
            `2030-01-01T00:00:${String(i).padStart(2, '0')}.000Z`,
          ),
        ]);
      await runtime.start();
      const newest = await store.newestPosition();
      await waitFor(async () => (await runtime.status())[0].position >= newest, 'the users read model to reach the newest event');
    });
    afterAll(async () => {
      await runtime.stop();
      await store.close();
      await db.close();
    });

    const schemas = async () =>
      (await db.database.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM pg_namespace WHERE nspname LIKE 'verify\\_%'`))[0].n;

    it('finds no difference in a read model the log explains, and leaves no shadow tables behind', async () => {
      const progress: number[] = [];
      const report = await runtime.verify('users', { onProgress: (p) => progress.push(p.events) });
      expect(report.differences).toEqual([]);
      expect(report.events).toBe(30);
      expect(report.tables).toEqual(expect.arrayContaining([{ table: 'rm_users', rows: 10 }]));
      expect(progress[progress.length - 1]).toBe(30);
      expect(await schemas()).toBe('0');
    });

    it('names the rows of an edited and of a deleted row, on the side that has them', async () => {
      await db.database.dataSource.query(`UPDATE rm_users SET properties = '{"name": "Tampered"}' WHERE environment = 'dev' AND id = 'u3'`);
      await db.database.dataSource.query(`DELETE FROM rm_users WHERE environment = 'dev' AND id = 'u7'`);
      const report = await runtime.verify('users');
      expect(report.differences).toHaveLength(1);
      const [users] = report.differences;
      expect(users).toMatchObject({ table: 'rm_users', onlyLive: 1, onlyRebuilt: 2 });
      expect(users.samples.filter((s) => s.side === 'live').map((s) => [s.row.id, s.row.properties])).toEqual([
        ['u3', { name: 'Tampered' }],
      ]);
      expect(
        users.samples
          .filter((s) => s.side === 'rebuilt')
          .map((s) => s.row.id)
          .sort(),
      ).toEqual(['u3', 'u7']);
      expect(await schemas()).toBe('0');
    });

    it('compares at the position the live projection is pinned at while the log grows', async () => {
      // The log grows while the rebuild runs: the live side follows, and the report's position is one both sides reached.
      await runtime.reset(usersProjection); // start from a read model the log explains again
      const writing = (async () => {
        for (let i = 0; i < 20; i++)
          await store.append(`user-dev-w${i}`, [identified('dev', `w${i}`, { n: i }, '2030-01-02T00:00:00.000Z')]);
      })();
      const during = await runtime.verify('users');
      await writing;
      expect(during.differences).toEqual([]);
      expect(during.events).toBeGreaterThanOrEqual(0);
      expect(during.events).toBeLessThanOrEqual(50);
      const newest = await store.newestPosition();
      await waitFor(async () => (await runtime.status())[0].position >= newest, 'the users read model to reach the newest event');
      const after = await runtime.verify('users');
      expect(after).toMatchObject({ differences: [], events: 50 });
    });
  });
}
