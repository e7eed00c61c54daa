import { PostgresEventStore, RecordedEvent } from '@notify/eventstore';
import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Projection } from './projection';
import { ProjectionRuntime } from './projection-runtime';

/**
 * An import replaces the log of a first start (ADR 0197); runners of the read models, in this
 * process and in others, had read the old log. Their next step must not apply the new log on top
 * of the old one's rows (ADR 0250): the import resets every projection in its own transaction, so
 * they find their checkpoints moved and start over. Two runtimes stand for two processes; each is
 * stepped by hand, so nothing races.
 */
const describeServer = describeWith('postgres');

/** One row per event applied, keyed by the event: an event applied twice fails, an old row left shows. */
const rows: Projection = {
  name: 'rows',
  version: 1,
  filter: { eventTypes: ['Old', 'New'] },
  tables: ['test_import_rows'],
  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    await tx.query('INSERT INTO test_import_rows (event_id, type) SELECT * FROM unnest($1::uuid[], $2::text[])', [
      events.map((e) => e.id),
      events.map((e) => e.type),
    ]);
  },
};

describeServer('a log import resets the read models with the log it replaces', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: true });
    store = await PostgresEventStore.create({ pool: db.database.pool });
    await db.database.dataSource.query('CREATE TABLE test_import_rows (event_id uuid PRIMARY KEY, type text NOT NULL)');
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  const applied = async () =>
    (await db.database.dataSource.query<{ type: string }[]>('SELECT type FROM test_import_rows ORDER BY type')).map((r) => r.type);

  it('runners that had read the old log start over from the new one, in every process', async () => {
    await store.append(`first-${randomUUID()}`, [
      { id: randomUUID(), type: 'Old', data: {}, metadata: { environment: null, schema_version: 1, actor: 'system:bootstrap' } },
    ]);
    const here = new ProjectionRuntime(store, db.database.dataSource, [rows], { batchSize: 10 });
    const elsewhere = new ProjectionRuntime(store, db.database.dataSource, [rows], { batchSize: 10 });
    await here.rebuild('rows');
    await elsewhere.stepAll(); // reads the checkpoint the rebuild left: caught up, its cursor at the old head
    expect(await applied()).toEqual(['Old']);

    const imported = { id: randomUUID(), streamId: `imported-${randomUUID()}`, revision: 0, globalPosition: 1n, createdAt: new Date() };
    await store.importReplacing(
      async function* () {
        yield [{ ...imported, type: 'New', data: {}, metadata: { environment: null, schema_version: 1, actor: 'secret:source' } }];
      },
      { replaceableActor: 'system:bootstrap', beforeCommit: (query) => here.resetAllIn(query) },
    );
    // Right at commit, the old rows are gone with the old log.
    expect(await applied()).toEqual([]);

    // Both runners step as their loops would (a first step may only find the checkpoint moved).
    for (let i = 0; i < 3; i++) {
      await elsewhere.stepAll();
      await here.stepAll();
    }
    expect(await applied()).toEqual(['New']);
    const [checkpoint] = await db.database.dataSource.query<{ events_applied: string }[]>(
      `SELECT events_applied::text FROM projection_checkpoints WHERE name = 'rows'`,
    );
    expect(Number(checkpoint.events_applied)).toBe(1);
  });
});
