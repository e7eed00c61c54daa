import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { EventToAppend, WrongExpectedRevisionError } from '../event-store';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Group commit (ADR 0146): concurrent single-stream appends share `es_append` statements, and
 * each keeps its own outcome: its expected revision, its idempotent replay, its failure alone.
 */
const meta = { environment: 'test', schema_version: 1 };
const event = (type: string): EventToAppend => ({ id: randomUUID(), type, data: { type }, metadata: meta });

for (const backend of databaseBackends()) {
  describe(`PostgreSQL event store (${backend}): group commit`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let appendStatements = 0;

    beforeAll(async () => {
      db = await createTestDatabase(backend, { migrate: false });
      store = await PostgresEventStore.create({ pool: db.database.pool });
      const query = db.database.pool.query.bind(db.database.pool) as (...args: unknown[]) => Promise<unknown>;
      (db.database.pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
        if (typeof args[0] === 'string' && args[0].includes('es_append(')) appendStatements++;
        return query(...args);
      };
    });
    afterAll(async () => {
      await store?.close();
      await db?.close();
    });

    it('concurrent appends to different streams share statements, each stream written once', async () => {
      const tag = randomUUID();
      const before = appendStatements;
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          store.append(`group-${tag}-${i}`, [event('A'), event('B')], { expectedRevision: 'no_stream' }),
        ),
      );
      // The first went out at once; the 39 asked for while it ran went out together (ADR 0278).
      expect(appendStatements - before).toBe(2);
      expect(results.map((r) => r.nextExpectedRevision)).toEqual(Array(40).fill(1));
      expect(new Set(results.map((r) => r.position)).size).toBe(40);
      for (let i = 0; i < 40; i += 13) {
        const events = await store.readStream(`group-${tag}-${i}`);
        expect(events.map((e) => [e.type, e.revision])).toEqual([
          ['A', 0],
          ['B', 1],
        ]);
      }
    });

    it('a conflict fails only its own append; a repeated append is answered as the first was', async () => {
      const tag = randomUUID();
      const repeated = [event('R')];
      const first = await store.append(`replay-${tag}`, repeated);
      await store.append(`taken-${tag}`, [event('T')]);
      const outcomes = await Promise.allSettled([
        ...Array.from({ length: 12 }, (_, i) => store.append(`fill-${tag}-${i}`, [event('F')])),
        store.append(`taken-${tag}`, [event('X')], { expectedRevision: 'no_stream' }),
        store.append(`replay-${tag}`, repeated),
        ...Array.from({ length: 12 }, (_, i) => store.append(`more-${tag}-${i}`, [event('M')], { expectedRevision: 'no_stream' })),
      ]);
      const rejected = outcomes.filter((o) => o.status === 'rejected');
      expect(rejected).toHaveLength(1);
      expect((rejected[0] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect((outcomes[12] as PromiseRejectedResult).status).toBe('rejected');
      expect((outcomes[13] as PromiseFulfilledResult<unknown>).value).toEqual(first);
      expect((await store.readStream(`taken-${tag}`)).map((e) => e.type)).toEqual(['T']);
      expect((await store.readStream(`replay-${tag}`)).map((e) => e.type)).toEqual(['R']);
      for (const prefix of ['fill', 'more'])
        for (let i = 0; i < 12; i++) expect((await store.readStream(`${prefix}-${tag}-${i}`)).length).toBe(1);
    });

    it('appends to one stream queued together keep their order', async () => {
      const tag = randomUUID();
      const busy = Array.from({ length: 8 }, (_, i) => store.append(`busy-${tag}-${i}`, [event('B')]));
      const ordered = Array.from({ length: 5 }, (_, i) => store.append(`order-${tag}`, [event(`E${i}`)]));
      await Promise.all([...busy, ...ordered]);
      expect((await store.readStream(`order-${tag}`)).map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);
    });

    it('appends to several streams at once share statements too, each all-or-nothing on its own', async () => {
      const tag = randomUUID();
      // A trigger with two runs, as the trigger endpoint appends them.
      const unit = (i: number | string, taken?: string) =>
        store.appendTogether([
          { streamId: `trigger-${tag}-${i}`, expectedRevision: 'no_stream', events: [event('T')] },
          { streamId: `run-${tag}-${i}-a`, expectedRevision: 'no_stream', events: [event('R')] },
          { streamId: taken ?? `run-${tag}-${i}-b`, expectedRevision: 'no_stream', events: [event('R'), event('S')] },
        ]);
      const before = appendStatements;
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => unit(i)));
      expect(appendStatements - before).toBeLessThan(30);
      for (const r of results) expect(r.map((x) => x.nextExpectedRevision)).toEqual([0, 0, 1]);
      expect((await store.readStream(`run-${tag}-7-b`)).map((e) => e.type)).toEqual(['R', 'S']);

      // One whose third stream is taken fails alone, and nothing of it is written.
      await store.append(`claimed-${tag}`, [event('C')]);
      const outcomes = await Promise.allSettled([unit('p'), unit('x', `claimed-${tag}`), unit('q')]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(`trigger-${tag}-x`)).toEqual([]);
      expect(await store.readStream(`run-${tag}-x-a`)).toEqual([]);
      expect((await store.readStream(`claimed-${tag}`)).map((e) => e.type)).toEqual(['C']);
      expect((await store.readStream(`run-${tag}-q-b`)).map((e) => e.type)).toEqual(['R', 'S']);
    });
  });
}
