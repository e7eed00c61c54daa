import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { randomInt, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { LogFilter, RecordedEvent, StreamAppend } from '../event-store';
import { SharedLogReader } from '../shared-log-reader';
import { CatchUpSubscription } from '../subscription';
import { PostgresEventStore } from './postgres-event-store';

/**
 * The log's one promise to projections, tried at random: with many writers whose transactions
 * commit after random delays (some roll back), every catch-up reader sees every committed event
 * exactly once, in position order, and nothing that was rolled back; each stream's events come
 * in revision order. Readers go through the store and through the shared in-process reader, with
 * and without filters, in small pages so that every paging path is taken.
 *
 * The run is seeded; the seed is in the test's name. Repeat a run with STRESS_SEED=<seed>.
 */
const describeServer = describeWith('postgres');

const seed = Number(process.env.STRESS_SEED) || randomInt(1, 2 ** 31);
const WRITERS = 8;
const APPENDS_PER_WRITER = 50;
const STREAMS = ['alpha-1', 'alpha-2', 'alpha-3', 'alpha-4', 'beta-1', 'beta-2', 'beta-3', 'beta-4', 'gamma-1', 'gamma-2'];
const TYPES = ['T1', 'T2', 'T3'];

/** mulberry32: a small, well-known seeded generator, so a failing run can be repeated. */
function generator(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const meta = { environment: 'test', schema_version: 1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeServer('PostgreSQL event store: concurrent writers and catch-up readers', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let shared: SharedLogReader;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false, poolSize: 6 });
    store = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url });
    // A tiny window, released quickly: readers fall behind it and back into it all the time.
    shared = new SharedLogReader(store, { pageSize: 7, keepRecent: 5, maxEvents: 40, retainMs: 20, namedReaderMs: 50 });
    for (let i = 0; i < WRITERS; i++) {
      const client = new Client({ connectionString: db.url });
      await client.connect();
      clients.push(client);
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await shared?.stop();
    await store?.close();
    await db?.close();
  });

  it(`every committed event reaches every reader once, in position order (seed ${seed})`, async () => {
    // One generator per writer (and one for the readers): each writer's plan is the seed's alone.
    const random = generator(seed);
    const start = await store.headPosition();
    const committed = new Set<string>();
    const rolledBack = new Set<string>();
    const errors: string[] = [];

    const readers: { name: string; filter?: LogFilter; received: RecordedEvent[]; subscription?: CatchUpSubscription }[] = [
      { name: 'store, all', received: [] },
      { name: 'store, beta streams', filter: { streamPrefixes: ['beta-'] }, received: [] },
      { name: 'store, T1 in alpha and beta', filter: { eventTypes: ['T1'], streamPrefixes: ['alpha-', 'beta-'] }, received: [] },
      { name: 'shared reader, all', received: [] },
      { name: 'shared reader, T1', filter: { eventTypes: ['T1'] }, received: [] },
    ];
    for (const [i, reader] of readers.entries()) {
      reader.subscription = new CatchUpSubscription(reader.name.startsWith('shared') ? shared : store, {
        after: start,
        filter: reader.filter,
        batchSize: 1 + Math.floor(random() * 9),
        idlePollMs: 50 + i * 10,
        handle: async (events) => {
          reader.received.push(...events);
          // A slow handler now and then, as a projection's batch under load.
          if (random() < 0.05) await sleep(random() * 20);
        },
        onError: (error) => errors.push(`${reader.name}: ${String(error)}`),
      });
    }

    const plan = (random: () => number) => {
      const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
      const streams = random() < 0.2 ? [...new Set([pick(STREAMS), pick(STREAMS)])] : [pick(STREAMS)];
      return streams.map((streamId): StreamAppend => ({
        streamId,
        events: Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
          id: randomUUID(),
          type: pick(TYPES),
          data: { writer: true },
          metadata: meta,
        })),
      }));
    };
    const writer = async (client: Client, index: number) => {
      const random = generator(seed + 7919 * (index + 1));
      for (let n = 0; n < APPENDS_PER_WRITER; n++) {
        const appends = plan(random);
        const ids = appends.flatMap((a) => a.events.map((e) => e.id));
        if (random() < 0.25) {
          // Through the adapter, committed at once.
          await store.appendMany(appends);
          ids.forEach((id) => committed.add(id));
          continue;
        }
        // By hand, in a transaction that stays open for a while after taking its positions.
        const delay = random() < 0.1 ? 30 + random() * 70 : random() * 10;
        const rollback = random() < 0.1;
        const events = appends.flatMap((a) => a.events);
        await client.query('BEGIN');
        const { rows } = await client.query<{ o_tx: string }>(
          'SELECT * FROM es_append($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])',
          [
            appends.map((a) => a.streamId),
            appends.map(() => 'any'),
            appends.map((a) => a.events.length),
            ids,
            events.map((e) => e.type),
            events.map((e) => JSON.stringify(e.data)),
            events.map((e) => JSON.stringify(e.metadata)),
          ],
        );
        expect(rows.map((r) => r.o_tx)).not.toContain('conflict');
        expect(rows).toHaveLength(ids.length);
        await sleep(delay);
        await client.query(rollback ? 'ROLLBACK' : 'COMMIT');
        ids.forEach((id) => (rollback ? rolledBack : committed).add(id));
      }
    };

    try {
      await Promise.all(clients.map((client, i) => writer(client, i)));
      // The last event of the run: a reader that has it has read everything committed before.
      const end = await store.append('beta-end', [{ id: randomUUID(), type: 'T1', data: { end: true }, metadata: meta }]);
      committed.add((await store.readStream('beta-end'))[0].id);
      for (const reader of readers)
        await waitFor(
          () => reader.received.some((e) => e.streamId === 'beta-end'),
          `reader "${reader.name}" to reach the end (seed ${seed})`,
          60_000,
        );

      // The log itself: exactly the committed events, each stream in revision order.
      const log = (await store.readAll({ after: start, maxCount: 1_000_000 })).events;
      expect(log.at(-1)?.position).toBe(end.position);
      expect(new Set(log.map((e) => e.id))).toEqual(committed);
      expect(log.filter((e) => rolledBack.has(e.id))).toEqual([]);
      const revisions = new Map<string, number[]>();
      for (const e of log) revisions.set(e.streamId, [...(revisions.get(e.streamId) ?? []), e.revision]);
      for (const [streamId, seen] of revisions) expect([streamId, seen]).toEqual([streamId, seen.map((_, i) => i)]);

      // Every reader: exactly its share of the log, once each, in position order.
      const matches = (e: RecordedEvent, filter?: LogFilter) =>
        (!filter?.eventTypes || filter.eventTypes.includes(e.type)) &&
        (!filter?.streamPrefixes || filter.streamPrefixes.some((p) => e.streamId.startsWith(p)));
      for (const reader of readers) {
        const expected = log.filter((e) => matches(e, reader.filter)).map((e) => e.id);
        expect({ reader: reader.name, seed, ids: reader.received.map((e) => e.id) }).toEqual({ reader: reader.name, seed, ids: expected });
      }
      expect(errors).toEqual([]);
      expect(committed.size).toBeGreaterThan(WRITERS * APPENDS_PER_WRITER);
      expect(rolledBack.size).toBeGreaterThan(0);
    } finally {
      await Promise.all(readers.map((r) => r.subscription?.stop()));
    }
  }, 180_000);
});
