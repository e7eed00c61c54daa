import { userStream } from '@notify/domain';
import { PostgresEventStore, RecordedEvent } from '@notify/eventstore';
import { ReactorRuntime } from '@notify/projection-runtime';
import { ChannelQueries } from '@notify/projections/channels';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { BulkOperationReactor } from './bulk-operation-reactor';
import { BulkOperationProcessor, BulkProcessorDeps, BulkWrite, createBulkOperation } from './bulk-operations';

async function eventually(check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const backend of databaseBackends()) {
  describe(`bulk operations across a worker restart on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let deps: BulkProcessorDeps;
    /** What each chunk waited for before recording its progress (no read models run here). */
    const waits: BulkWrite[][] = [];

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
      deps = {
        store,
        channels: new ChannelQueries(db.database.dataSource),
        subscriptions: new SubscriptionQueries(db.database.dataSource),
        readModelsAt: async (writes) => {
          waits.push([...writes]);
        },
      };
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });

    const count = async (sql: string, params: unknown[]) => Number((await db.database.dataSource.query<{ c: string }[]>(sql, params))[0].c);

    it('resumes after the last recorded chunk, and redoes the interrupted chunk without appending anything twice', async () => {
      const total = 250;
      const users = Array.from({ length: total }, (_, i) => ({ id: `restart-${i}`, name: `User ${i}` }));
      const { operation } = await createBulkOperation(
        deps,
        'test',
        { kind: 'users.identify', collection: null, items: users },
        { environment: 'test', actor: 'test' },
      );
      const stream = `bulk-operation-test-${operation.id}`;
      const identified = () =>
        count(`SELECT count(*) AS c FROM es_events WHERE event_type = 'UserIdentified' AND metadata->>'correlation_id' = $1`, [
          operation.id,
        ]);

      // The first worker dies in the middle of the third chunk, every time it gets there.
      let crashes = 0;
      const crashing = new BulkOperationProcessor(deps, {
        chunkSize: 50,
        itemConcurrency: 4,
        afterItem: (index) => {
          if (index === 120) {
            crashes++;
            throw new Error('worker killed');
          }
        },
      });
      const first = new ReactorRuntime(store, db.database.dataSource, [new BulkOperationReactor(crashing)], { batchSize: 10 });
      await first.start();
      // It crashes, the runtime retries the batch (redoing the chunk), and it crashes again.
      await eventually(async () => crashes >= 2);
      await first.stop();

      const progressed = async () =>
        (
          await db.database.dataSource.query<{ processed: number }[]>(
            `SELECT (data->>'processed_rows')::int AS processed FROM es_events WHERE stream_id = $1 AND event_type = 'BulkOperationProgressed' ORDER BY global_position`,
            [stream],
          )
        ).map((r) => r.processed);
      expect(await progressed()).toEqual([50, 100]);
      const beforeRestart = await identified();
      // Items of the interrupted chunk were applied before the crash, and only once.
      expect(beforeRestart).toBeGreaterThan(100);
      expect(beforeRestart).toBeLessThan(150);

      // A new worker picks the operation up where the log says it stopped.
      const second = new ReactorRuntime(
        store,
        db.database.dataSource,
        [new BulkOperationReactor(new BulkOperationProcessor(deps, { chunkSize: 50, itemConcurrency: 4 }))],
        {
          batchSize: 10,
        },
      );
      waits.length = 0;
      await second.start();
      try {
        await eventually(async () => (await store.readStream(stream)).some((e: RecordedEvent) => e.type === 'BulkOperationCompleted'));
      } finally {
        await second.stop();
      }

      expect(await progressed()).toEqual([50, 100, 150, 200, 250]);
      expect(await identified()).toBe(total);
      expect(
        await count(
          `SELECT count(DISTINCT stream_id) AS c FROM es_events WHERE event_type = 'UserIdentified' AND metadata->>'correlation_id' = $1`,
          [operation.id],
        ),
      ).toBe(total);
      const last = (await store.readStream(stream)).filter((e) => e.type === 'BulkOperationProgressed').pop()!;
      expect(last.data).toMatchObject({ processed_rows: total, success_count: total, error_count: 0 });
      expect((await store.readStream(stream)).filter((e) => e.type === 'BulkOperationCompleted')).toHaveLength(1);

      // Each chunk of the second worker waited for every one of its items' streams at the
      // stream's latest position, those of the redone chunk that appended nothing this time too.
      expect(waits).toHaveLength(3);
      const waited = new Map(waits.flat().map((w) => [w.events[0].streamId, w]));
      const streams = await store.readStreams(users.slice(100).map((u) => userStream('test', u.id)));
      for (const [streamId, history] of streams) {
        expect(waited.get(streamId)).toEqual({
          position: history[history.length - 1].position,
          events: [{ type: 'UserIdentified', streamId }],
        });
      }
      expect(waited.size).toBe(150);
    });
  });
}
