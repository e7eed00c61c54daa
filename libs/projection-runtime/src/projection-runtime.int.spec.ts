import { PostgresEventStore, RecordedEvent } from '@notify/eventstore';
import { environmentsProjection } from '@notify/projections/environments';
import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Projection } from './projection';
import { ProjectionRuntime } from './projection-runtime';

const meta = (environment: string | null) => ({ environment, schema_version: 1 });
const now = '2026-01-01T00:00:00.000Z';

/** A projection whose effect is not idempotent: any batch applied twice shows up in the total. */
const counter = (name = 'counter'): Projection & { failOn?: string } => {
  const p: Projection & { failOn?: string } = {
    name,
    version: 1,
    filter: { eventTypes: ['Tick'] },
    tables: ['test_counter'],
    async apply(events: readonly RecordedEvent[], tx: EntityManager) {
      for (const e of events) {
        if (p.failOn && (e.data as { n: number }).n === Number(p.failOn)) throw new Error('boom');
        await tx.query('INSERT INTO test_counter (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = test_counter.n + 1');
      }
    },
  };
  return p;
};

async function snapshot(db: TestDatabase, tables: readonly string[]) {
  const out: Record<string, unknown[]> = {};
  for (const t of tables) out[t] = await db.database.dataSource.query(`SELECT * FROM ${t} ORDER BY 1`);
  return out;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const backend of databaseBackends()) {
  describe(`projection runtime on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
      await db.database.dataSource.query('CREATE TABLE test_counter (id int PRIMARY KEY, n int NOT NULL)');
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });

    it('builds the environments read model live, and a rebuild from the log equals it', async () => {
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [environmentsProjection], { batchSize: 3 });
      await runtime.start();
      try {
        let last = '';
        for (const slug of ['development', 'production']) {
          last = (
            await store.append(`environment-${slug}`, [
              { id: randomUUID(), type: 'EnvironmentCreated', data: { slug, name: slug, order: 0, created_at: now }, metadata: meta(slug) },
            ])
          ).position;
          for (let i = 0; i < 4; i++) {
            const keyId = randomUUID();
            last = (
              await store.append(`environment-${slug}`, [
                {
                  id: randomUUID(),
                  type: 'ApiKeyIssued',
                  data: {
                    key_id: keyId,
                    kind: i % 2 ? 'secret' : 'publishable',
                    key_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
                    hint: 'abcd',
                    issued_at: now,
                  },
                  metadata: meta(slug),
                },
                ...(i === 3
                  ? [{ id: randomUUID(), type: 'ApiKeyRevoked', data: { key_id: keyId, revoked_at: now }, metadata: meta(slug) }]
                  : []),
              ])
            ).position;
          }
        }
        await eventually(async () => (await runtime.status())[0].position >= last);
        const live = await snapshot(db, environmentsProjection.tables);
        expect(live.rm_environments).toHaveLength(2);
        expect(live.rm_api_keys).toHaveLength(8);
        expect((live.rm_api_keys as { revoked_at: Date | null }[]).filter((k) => k.revoked_at)).toHaveLength(2);
        await runtime.stop();

        const rebuilt = await runtime.rebuild('environments');
        expect(rebuilt.events).toBe(2 + 8 + 2);
        expect(await snapshot(db, environmentsProjection.tables)).toEqual(live);
      } finally {
        await runtime.stop();
      }
    });

    it('read-your-writes: waitFor resolves once the projections that read the event have passed it', async () => {
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [environmentsProjection], { batchSize: 100 });
      await runtime.start();
      try {
        const slug = `env-${randomUUID().slice(0, 8)}`;
        const result = await store.append(`environment-${slug}`, [
          { id: randomUUID(), type: 'EnvironmentCreated', data: { slug, name: slug, order: 1, created_at: now }, metadata: meta(slug) },
        ]);
        const ok = await runtime.waitFor(result.position, [{ type: 'EnvironmentCreated', streamId: `environment-${slug}` }], 5000);
        expect(ok).toBe(true);
        const rows = await db.database.dataSource.query('SELECT slug FROM rm_environments WHERE slug = $1', [slug]);
        expect(rows).toHaveLength(1);
        // An event no projection reads needs no wait at all.
        expect(await runtime.waitFor('f'.repeat(32), [{ type: 'Unread', streamId: 'x' }], 0)).toBe(true);
        // A position nobody has reached times out and says so.
        expect(await runtime.waitFor('f'.repeat(32), [{ type: 'EnvironmentCreated', streamId: 'environment-x' }], 50)).toBe(false);
      } finally {
        await runtime.stop();
      }
    });

    it('applies a batch and moves the checkpoint together, or neither', async () => {
      const projection = counter('atomic');
      projection.failOn = '2';
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [projection], { batchSize: 10 });
      await runtime.reset(projection).catch(() => undefined);
      await db.database.dataSource.query('DELETE FROM test_counter');
      const before = await store.headPosition();
      await store.append(
        `tick-${randomUUID()}`,
        [1, 2, 3].map((n) => ({ id: randomUUID(), type: 'Tick', data: { n }, metadata: meta('test') })),
      );
      await runtime.start();
      try {
        await eventually(async () => !!(await runtime.status())[0].lastError);
        // The batch failed on its second event: the first event's effect was rolled back too.
        expect(await db.database.dataSource.query('SELECT n FROM test_counter')).toEqual([]);
        expect((await runtime.status())[0].position <= before).toBe(true);
        projection.failOn = undefined; // the fault goes away; the retry applies all three once
        await eventually(async () => (await db.database.dataSource.query('SELECT n FROM test_counter'))[0]?.n === 3);
      } finally {
        await runtime.stop();
      }
    });

    it('never applies a batch twice when two runtimes (two workers) race on one projection', async () => {
      await db.database.dataSource.query('DELETE FROM test_counter');
      const a = new ProjectionRuntime(store, db.database.dataSource, [counter('raced')], { batchSize: 7 });
      const b = new ProjectionRuntime(store, db.database.dataSource, [counter('raced')], { batchSize: 5 });
      await Promise.all([a.start(), b.start()]);
      try {
        const appends = Array.from({ length: 20 }, () =>
          store.append(
            `tick-${randomUUID()}`,
            Array.from({ length: 5 }, (_, n) => ({ id: randomUUID(), type: 'Tick', data: { n }, metadata: meta('test') })),
          ),
        );
        await Promise.all(appends);
        const total = Number((await db.database.dataSource.query("SELECT count(*) AS c FROM es_events WHERE event_type = 'Tick'"))[0].c);
        await eventually(async () => (await db.database.dataSource.query('SELECT n FROM test_counter'))[0]?.n >= total);
        await new Promise((r) => setTimeout(r, 300));
        expect((await db.database.dataSource.query('SELECT n FROM test_counter'))[0].n).toBe(total);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });
  });
}
