import { createTestDatabase, databaseBackends, requireBackend, testEnv, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { DuplicateEventIdError, EventToAppend } from '../event-store';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Appends that repeat event ids already in the log, after other events were appended since: the
 * answer must describe what the log holds (the first append's positions and revisions), and an
 * append that mixes new and stored ids must write nothing and report nothing it did not commit.
 */
requireBackend('postgres', !!testEnv.postgresUrl);

const meta = { environment: 'test', schema_version: 1 };
const event = (type: string): EventToAppend => ({ id: randomUUID(), type, data: { type }, metadata: meta });

for (const backend of databaseBackends()) {
  describe(`PostgreSQL event store (${backend}): appends repeating stored event ids`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    const log = async (streamId: string) =>
      (
        await db.database.pool.query<{ event_id: string; stream_revision: string; global_position: string }>(
          'SELECT event_id, stream_revision, global_position FROM es_events WHERE stream_id = $1 ORDER BY global_position',
          [streamId],
        )
      ).rows.map((r) => [r.event_id, Number(r.stream_revision), BigInt(r.global_position)]);
    const revision = async (streamId: string) =>
      Number(
        (await db.database.pool.query<{ revision: string }>('SELECT revision FROM es_streams WHERE stream_id = $1', [streamId])).rows[0]
          ?.revision,
      );
    const total = async () => Number((await db.database.pool.query<{ c: string }>('SELECT count(*) AS c FROM es_events')).rows[0].c);

    beforeAll(async () => {
      db = await createTestDatabase(backend, { migrate: false });
      store = await PostgresEventStore.create({ pool: db.database.pool });
    });
    afterAll(async () => {
      await store?.close();
      await db?.close();
    });

    it('answers a repeated batch as its first append did, after newer events, whatever the expectation', async () => {
      const id = `dup-${randomUUID()}`;
      const [a, b, c] = [event('A'), event('B'), event('C')];
      const first = await store.append(id, [a, b], { expectedRevision: 'no_stream' });
      const later = await store.append(id, [c], { expectedRevision: 1 });
      const before = await log(id);

      for (const expectedRevision of ['no_stream', 'any', 'stream_exists', 0, 1, 2] as const) {
        const again = await store.append(id, [a, b], { expectedRevision });
        expect(again).toEqual(first);
      }
      // A repeated suffix of the batch is answered by where that suffix landed.
      expect(await store.append(id, [b])).toEqual(first);
      expect(await log(id)).toEqual(before);
      expect(await revision(id)).toBe(later.nextExpectedRevision);
      expect(first).toMatchObject({ nextExpectedRevision: 1, globalPosition: before[1][2] });
    });

    it('writes nothing and reports nothing uncommitted when new ids are mixed with a stored one', async () => {
      const id = `mix-${randomUUID()}`;
      const [a, b] = [event('A'), event('B')];
      await store.append(id, [a]);
      await store.append(id, [b]);
      const before = await log(id);
      const count = await total();

      // The stored id first, last, and in the middle of new ones.
      for (const batch of [
        [a, event('N1')],
        [event('N2'), a],
        [event('N3'), b, event('N4')],
      ]) {
        const outcome = await store.append(id, batch).then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        expect(outcome).toEqual({ error: expect.any(DuplicateEventIdError) });
        expect(await log(id)).toEqual(before);
        expect(await total()).toBe(count);
        expect(await revision(id)).toBe(1);
      }
    });

    it('writes nothing for a multi-stream append where one stream repeats a stored id', async () => {
      const x = `many-x-${randomUUID()}`;
      const y = `many-y-${randomUUID()}`;
      const stored = event('Stored');
      await store.append(x, [stored]);
      await store.append(x, [event('Newer')]);
      const count = await total();
      const outcome = await store
        .appendMany([
          { streamId: y, events: [event('Y0'), event('Y1')] },
          { streamId: x, events: [stored] },
        ])
        .then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
      expect(outcome).toEqual({ error: expect.any(DuplicateEventIdError) });
      expect(await log(y)).toEqual([]);
      expect(await total()).toBe(count);
    });

    it('appends normally after answering a repeat: revisions and positions continue from the log', async () => {
      const id = `after-${randomUUID()}`;
      const a = event('A');
      await store.append(id, [a]);
      await store.append(id, [event('B')]);
      await store.append(id, [a]);
      const next = await store.append(id, [event('C')], { expectedRevision: 1 });
      const rows = await log(id);
      expect(rows.map((r) => r[1])).toEqual([0, 1, 2]);
      expect(next).toMatchObject({ nextExpectedRevision: 2, globalPosition: rows[2][2] });
    });
  });
}
