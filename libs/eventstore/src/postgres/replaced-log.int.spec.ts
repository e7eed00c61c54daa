import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { SharedLogReader } from '../shared-log-reader';
import { PostgresEventStore } from './postgres-event-store';

/**
 * A process keeps a window of the log's recent events (SharedLogReader) and serves its projections
 * and reactors from it. An import that replaces the log (ADR 0197) makes that window the old log's:
 * the process that imported drops it at the commit, another process when the notification sent
 * with the commit arrives (ADR 0250). Before, a rebuild after the import read the first start's
 * events from the window and put them back in the read models (its keys kept working).
 */
const describeServer = describeWith('postgres');

describeServer('a replaced log is not served from a window of the old one', () => {
  let db: TestDatabase;
  let here: PostgresEventStore;
  let elsewhere: PostgresEventStore;
  let readers: SharedLogReader[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    here = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url });
    elsewhere = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url });
  });
  afterAll(async () => {
    for (const reader of readers) await reader.stop();
    await here?.close();
    await elsewhere?.close();
    await db?.close();
  });

  const types = async (reader: SharedLogReader) => (await reader.readAll({ after: '' })).events.map((e) => e.type);

  it('drops the window in the importing process at the commit, and in another as the notification arrives', async () => {
    readers = [new SharedLogReader(here), new SharedLogReader(elsewhere)];
    const [local, remote] = readers;
    // Both windows start on the empty log, then hold the first start's event.
    for (const reader of readers) expect(await types(reader)).toEqual([]);
    const first = await here.append(`first-${randomUUID()}`, [
      { id: randomUUID(), type: 'FirstStart', data: {}, metadata: { environment: null, schema_version: 1, actor: 'system:bootstrap' } },
    ]);
    for (const reader of readers) {
      await waitFor(() => reader.buffered === 1, 'the window to hold the first start');
      expect(await types(reader)).toEqual(['FirstStart']);
    }

    await here.importReplacing(
      async function* () {
        yield [
          {
            id: randomUUID(),
            streamId: `imported-${randomUUID()}`,
            revision: 0,
            globalPosition: 1n,
            createdAt: new Date(),
            type: 'Imported',
            data: {},
            metadata: { environment: null, schema_version: 1, actor: 'secret:source' },
          },
        ];
      },
      { replaceableActor: 'system:bootstrap' },
    );

    expect(await types(local)).toEqual(['Imported']);
    await waitFor(async () => (await types(remote)).join() === 'Imported', 'the other process to drop its window');
    // Both tail the new log from its head on.
    const later = await elsewhere.append(`later-${randomUUID()}`, [
      { id: randomUUID(), type: 'Later', data: {}, metadata: { environment: null, schema_version: 1 } },
    ]);
    for (const reader of readers) {
      await waitFor(async () => (await types(reader)).join() === 'Imported,Later', 'the new log and what came after');
    }
    expect(later.position > first.position).toBe(true);
  });
});
