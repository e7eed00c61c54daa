import { PostgresEventStore, RecordedEvent } from '@notify/eventstore';
import { environmentsProjection } from '@notify/projections/environments';
import { createTestDatabase, databaseBackends, TestDatabase, waitFor } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Projection } from './projection';
import { ProjectionRuntime } from './projection-runtime';
import { deferWrite } from './deferred-writes';

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

/**
 * Records which transaction applied each event it reads: no key, so an event applied twice shows
 * as two rows. `deferring`: the write is deferred (`deferWrite`), so a small batch goes as one
 * message with its BEGIN, lock and COMMIT (ADR 0268).
 */
const recorder = (name: string, types: string[], deferring = false): Projection & { failOn?: number } => {
  const p: Projection & { failOn?: number } = {
    name,
    version: 1,
    filter: { eventTypes: types },
    tables: [],
    async apply(events: readonly RecordedEvent[], tx: EntityManager) {
      if (events.some((e) => (e.data as { n: number }).n === p.failOn)) throw new Error(`boom in ${name}`);
      const write = deferring
        ? (sql: string, params: unknown[]) => deferWrite(tx, sql, params)
        : (sql: string, params: unknown[]) => tx.query(sql, params);
      await write('INSERT INTO test_applied (name, event_id, txid) SELECT $1, id, txid_current() FROM unnest($2::uuid[]) AS id', [
        name,
        events.map((e) => e.id),
      ]);
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
      await db.database.dataSource.query('CREATE TABLE test_applied (name text NOT NULL, event_id uuid NOT NULL, txid bigint NOT NULL)');
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

    it('a rebuild takes in what was committed before it began even while reads do not serve it yet (the visible bound low)', async () => {
      const p = recorder('rebuild-bound', ['Hidden']);
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const written: { position: string }[] = [];
      for (const [n, id] of ids.entries())
        written.push(await store.append(`hidden-${randomUUID()}`, [{ id, type: 'Hidden', data: { n }, metadata: meta('dev') }]));
      // Reads and the head stop short of the last append, as when es_visible_bound errs low for a
      // moment, until the test lets them through.
      const hiddenFrom = written[2].position;
      let hiding = true;
      const idleReads: string[] = [];
      const lagging = {
        readAll: async (options: Parameters<PostgresEventStore['readAll']>[0] = {}) => {
          const page = await store.readAll(options);
          if (!hiding) return page;
          const events = page.events.filter((e) => e.position < hiddenFrom);
          if (events.length === 0) idleReads.push(options.after ?? '');
          const scannedTo = page.scannedTo < hiddenFrom ? page.scannedTo : (events[events.length - 1]?.position ?? options.after ?? '');
          return { events, scannedTo };
        },
        headPosition: async () => (hiding ? written[1].position : store.headPosition()),
        newestPosition: () => store.newestPosition(),
        onAppended: (listener: () => void) => store.onAppended(listener),
      };
      const runtime = new ProjectionRuntime(lagging, db.database.dataSource, [p], { batchSize: 2 });
      const rebuilding = runtime.rebuild('rebuild-bound');
      // The rebuild has read all it is served and waits on the hidden event.
      await waitFor(() => idleReads.length >= 2, 'the rebuild to wait at the bound');
      hiding = false;
      await rebuilding;
      const applied = await db.database.dataSource.query(`SELECT event_id FROM test_applied WHERE name = 'rebuild-bound'`);
      expect(applied.map((r: { event_id: string }) => r.event_id).sort()).toEqual([...ids].sort());
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

    it('a stop ends the waits for read models at once (a reactor waiting must not hold a shutdown)', async () => {
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [environmentsProjection], { batchSize: 100 });
      await runtime.start();
      // Longer than the test's own bound: only the stop can end it in time.
      const waiting = runtime.waitFor('f'.repeat(32), [{ type: 'EnvironmentCreated', streamId: 'environment-x' }], 600_000);
      await runtime.stop();
      expect(await waiting).toBe(false);
      expect(await runtime.waitFor('f'.repeat(32), [{ type: 'EnvironmentCreated', streamId: 'environment-x' }], 600_000)).toBe(false);
    });

    it('read-your-writes from a running runtime needs no checkpoint reads; without its loop, the table answers', async () => {
      let polls = 0;
      const counting = Object.create(db.database.dataSource) as typeof db.database.dataSource;
      counting.query = ((text: string, ...rest: unknown[]) => {
        if (text.startsWith('SELECT position FROM projection_checkpoints')) polls++;
        return (db.database.dataSource.query as (...a: unknown[]) => unknown).call(db.database.dataSource, text, ...rest);
      }) as typeof counting.query;
      // Its own event type: the other tests count every Tick in the log.
      const projection = recorder('local-wait', ['Tack']);
      const running = new ProjectionRuntime(store, counting, [projection], { batchSize: 100, localFirstMs: 600_000 });
      const idle = new ProjectionRuntime(store, counting, [recorder('local-wait', ['Tack'])], { batchSize: 100 });
      await running.start();
      try {
        const result = await store.append(`tack-${randomUUID()}`, [event('Tack', 1), event('Tack', 2)]);
        expect(await running.waitFor(result.position, [{ type: 'Tack', streamId: 'tack-' }], 30_000)).toBe(true);
        expect(polls).toBe(0);
        const applied = await db.database.dataSource.query('SELECT 1 FROM test_applied WHERE name = $1', ['local-wait']);
        expect(applied).toHaveLength(2);
        // A runtime whose loop is not running (the api's) learns it from the checkpoint table.
        expect(await idle.waitFor(result.position, [{ type: 'Tack', streamId: 'tack-' }], 30_000)).toBe(true);
        expect(polls).toBeGreaterThan(0);
      } finally {
        await running.stop();
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
    const applied = async (name: string, ids: readonly string[]) =>
      db.database.dataSource.query<{ event_id: string; txid: string }[]>(
        'SELECT event_id, txid::text FROM test_applied WHERE name = $1 AND event_id = ANY($2::uuid[])',
        [name, ids],
      );
    const checkpoint = async (name: string) =>
      (await db.database.dataSource.query<{ position: string }[]>('SELECT position FROM projection_checkpoints WHERE name = $1', [name]))[0]
        ?.position ?? '';
    const event = (type: string, n: number) => ({ id: randomUUID(), type, data: { n }, metadata: meta('test') });

    it('applies one page to every projection at the same position in one transaction', async () => {
      const tick = recorder('grouped-tick', ['Tick']);
      const tock = recorder('grouped-tock', ['Tock']);
      const both = recorder('grouped-both', ['Tick', 'Tock']);
      const beside = { ...recorder('grouped-beside', ['Tick']), lane: 'side' };
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [tick, tock, both, beside], { batchSize: 500 });
      await runtime.start();
      try {
        const events = [event('Tick', 1), event('Tock', 2), event('Tick', 3)];
        const { position } = await store.append(`tick-${randomUUID()}`, events);
        const ids = events.map((e) => e.id);
        expect(
          await runtime.waitFor(
            position,
            [
              { type: 'Tick', streamId: 'tick-x' },
              { type: 'Tock', streamId: 'tick-x' },
            ],
            30_000,
          ),
        ).toBe(true);
        const [a, b, c] = [await applied(tick.name, ids), await applied(tock.name, ids), await applied(both.name, ids)];
        expect(a.map((r) => r.event_id).sort()).toEqual([ids[0], ids[2]].sort());
        expect(b.map((r) => r.event_id)).toEqual([ids[1]]);
        expect(c.map((r) => r.event_id).sort()).toEqual([...ids].sort());
        // One transaction applied the page to all three (they started together, from the start of the log).
        expect(new Set([...a, ...b, ...c].map((r) => r.txid)).size).toBe(1);
        // A projection in another lane runs beside them, in a transaction of its own.
        const d = await applied(beside.name, ids);
        expect(d.map((r) => r.event_id).sort()).toEqual([ids[0], ids[2]].sort());
        expect(d[0].txid).not.toBe(a[0].txid);
        for (const p of [tick, tock, both, beside]) expect((await checkpoint(p.name)) >= position).toBe(true);
      } finally {
        await runtime.stop();
      }
    });

    /** A projection in a lane of its own and a background one, on a runtime of pages of two, their checkpoints created. */
    async function frontAndBackground(prefix: string, options: Partial<ConstructorParameters<typeof ProjectionRuntime>[3]>) {
      const type = `${prefix}${randomUUID().slice(0, 8)}`;
      const front = { ...recorder(`front-${type}`, [type]), lane: 'front' };
      const history = { ...recorder(`history-${type}`, [type]), lane: 'history', background: true };
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [front, history], { batchSize: 2, ...options });
      for (const p of [front, history])
        await db.database.dataSource.query(
          'INSERT INTO projection_checkpoints (name, version) VALUES ($1, 1) ON CONFLICT (name) DO NOTHING',
          [p.name],
        );
      return { type, front, history, runtime };
    }

    it('lets a background lane wait while other work goes on, for a bounded time, and never while someone waits for it (ADR 0286)', async () => {
      let clock = 1_000;
      let executorBusy = false;
      const { type, front, history, runtime } = await frontAndBackground('Ping', { backgroundMaxDeferMs: 60_000, now: () => clock });
      runtime.yieldTo(() => executorBusy);
      const events = Array.from({ length: 12 }, (_, n) => event(type, n));
      const { position } = await store.append(`ping-${randomUUID()}`, events);
      const ids = events.map((e) => e.id);
      const count = async (name: string) => (await applied(name, ids)).length;

      // Nothing is known to be at work on the first step: both lanes take a page.
      await runtime.stepAll();
      expect([await count(front.name), await count(history.name)]).toEqual([2, 2]);
      // The front lane found work: the background lane waits while it goes on.
      await runtime.stepAll();
      await runtime.stepAll();
      expect([await count(front.name), await count(history.name)]).toEqual([6, 2]);
      expect(runtime.backgroundSkips).toBe(2);

      // Someone waits for the background projection: it runs, whatever else is at work.
      const waited = runtime.waitFor(position, [{ type, streamId: 'ping-x' }], 60_000, [history.name]);
      await runtime.stepAll();
      expect([await count(front.name), await count(history.name)]).toEqual([8, 4]);
      while ((await count(history.name)) < 12) await runtime.stepAll();
      expect(await waited).toBe(true);
      expect(await count(front.name)).toBe(12);

      // Work given to yieldTo counts as other work: with it busy, the caught-up front lane does not let it run.
      const more = Array.from({ length: 6 }, (_, n) => event(type, 100 + n));
      await store.append(`ping-${randomUUID()}`, more);
      const moreIds = more.map((e) => e.id);
      const countMore = async (name: string) => (await applied(name, moreIds)).length;
      while ((await countMore(front.name)) < 6) await runtime.stepAll();
      await runtime.stepAll(); // the front lane reads less than a page: no backlog
      executorBusy = true;
      const [skipped, before] = [runtime.backgroundSkips, await countMore(history.name)];
      expect(before).toBeLessThan(6);
      await runtime.stepAll();
      await runtime.stepAll();
      expect(await countMore(history.name)).toBe(before);
      expect(runtime.backgroundSkips).toBe(skipped + 2);

      // It waits at most backgroundMaxDeferMs at a stretch: then it catches up, however busy the rest is.
      clock += 60_000;
      await runtime.stepAll();
      expect(await countMore(history.name)).toBe(before + 2);
      while ((await countMore(history.name)) < 6) await runtime.stepAll();
      expect(runtime.backgroundSkips).toBe(skipped + 2);
      // Every event applied once to each.
      expect(await count(front.name)).toBe(12);
      expect(await count(history.name)).toBe(12);
      expect([await countMore(front.name), await countMore(history.name)]).toEqual([6, 6]);
    });

    it('never lets a background lane wait with backgroundMaxDeferMs 0', async () => {
      const { type, front, history, runtime } = await frontAndBackground('Pong', { backgroundMaxDeferMs: 0 });
      runtime.yieldTo(() => true);
      const events = Array.from({ length: 6 }, (_, n) => event(type, n));
      await store.append(`pong-${randomUUID()}`, events);
      const ids = events.map((e) => e.id);
      for (let i = 0; i < 3; i++) await runtime.stepAll();
      expect([(await applied(front.name, ids)).length, (await applied(history.name, ids)).length]).toEqual([6, 6]);
      expect(runtime.backgroundSkips).toBe(0);
    });

    it('isolates a projection whose batch throws: the others go on, it catches up once the fault is gone', async () => {
      await store.append(`tick-${randomUUID()}`, [event('Tick', 0)]);
      const faulty = recorder('isolated-faulty', ['Tick']);
      const healthy = recorder('isolated-healthy', ['Tick']);
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [faulty, healthy], { batchSize: 500 });
      await runtime.start();
      try {
        const ticks = { streamId: 'tick-x', type: 'Tick' };
        expect(await runtime.waitFor(await store.headPosition(), [ticks], 30_000)).toBe(true);
        faulty.failOn = 2;
        const events = [1, 2, 3].map((n) => event('Tick', n));
        const { position } = await store.append(`tick-${randomUUID()}`, events);
        const ids = events.map((e) => e.id);
        await waitFor(
          async () => (await applied(healthy.name, ids)).length === 3 && !!(await runtime.status())[0].lastError,
          'the healthy projection past the batch, the faulty one failed',
        );
        expect(await applied(faulty.name, ids)).toEqual([]);
        expect((await checkpoint(faulty.name)) < position).toBe(true);
        expect((await checkpoint(healthy.name)) >= position).toBe(true);
        faulty.failOn = undefined; // the fault goes away: it applies the batch once and rejoins
        expect(await runtime.waitFor(position, [ticks], 30_000)).toBe(true);
        expect((await applied(faulty.name, ids)).length).toBe(3);
        expect((await runtime.status()).map((s) => s.lastError)).toEqual([undefined, undefined]);
      } finally {
        await runtime.stop();
      }
    });

    for (const deferring of [false, true])
      it(`two runtimes sharing a database never apply a page twice to any projection of a group${deferring ? ', their writes deferred (one message per batch, ADR 0268)' : ''}`, async () => {
        const names = ['shared-a', 'shared-b', 'shared-c'].map((n) => (deferring ? `${n}-deferring` : n));
        const types: Record<string, string[]> = { [names[0]]: ['Tick'], [names[1]]: ['Tock'], [names[2]]: ['Tick', 'Tock'] };
        const make = () => names.map((n) => recorder(n, types[n], deferring));
        const a = new ProjectionRuntime(store, db.database.dataSource, make(), { batchSize: 7 });
        const b = new ProjectionRuntime(store, db.database.dataSource, make(), { batchSize: 5 });
        await Promise.all([a.start(), b.start()]);
        const ids: string[] = [];
        try {
          const appended = await Promise.all(
            Array.from({ length: 20 }, (_, i) => {
              const events = Array.from({ length: 5 }, (__, n) => event(n % 2 ? 'Tock' : 'Tick', n));
              ids.push(...events.map((e) => e.id));
              return store.append(`tick-${i}-${randomUUID()}`, events);
            }),
          );
          // The last of the appends' own positions, not headPosition(): the head is what readers may
          // see now, and a committed append stays out of sight while an older transaction (here: a
          // runtime's batch) is still open, so every checkpoint could be past the head before the
          // runtimes have read that append.
          const head = appended.map((r) => r.position).reduce((max, p) => (p > max ? p : max));
          await waitFor(
            async () => (await Promise.all(names.map(checkpoint))).every((p) => p >= head),
            'every checkpoint at the head',
            60_000,
          );
        } finally {
          await Promise.all([a.stop(), b.stop()]);
        }
        // Both stopped: nothing is applied any more; every event was applied exactly once per projection.
        const rows = await db.database.dataSource.query<{ name: string; n: string; distinct_n: string }[]>(
          `SELECT name, count(*)::text AS n, count(DISTINCT event_id)::text AS distinct_n FROM test_applied
         WHERE event_id = ANY($1::uuid[]) GROUP BY name ORDER BY name`,
          [ids],
        );
        expect(rows).toEqual([
          { name: names[0], n: '60', distinct_n: '60' },
          { name: names[1], n: '40', distinct_n: '40' },
          { name: names[2], n: '100', distinct_n: '100' },
        ]);
      });
  });
}
