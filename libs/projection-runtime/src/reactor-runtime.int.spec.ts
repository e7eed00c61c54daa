import { PostgresEventStore, RecordedEvent } from '@notify/eventstore';
import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { NOTHING_DONE, Reactor } from './reactor';
import { ReactorRuntime } from './reactor-runtime';

const meta = { environment: 'test', schema_version: 1 };

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A promise and the function that resolves it. */
function opened() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

for (const backend of databaseBackends()) {
  describe(`reactor runtime on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    /** A reactor's checkpoint row as stored. */
    const checkpointRow = async (name: string) =>
      (
        await db.database.dataSource.query<{ position: string; events_handled: string }[]>(
          'SELECT position, events_handled FROM reactor_checkpoints WHERE name = $1',
          [name],
        )
      )[0];

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });

    it('handles live events, and after a failure retries the batch instead of skipping it', async () => {
      const tag = randomUUID().slice(0, 8);
      const seen: string[] = [];
      let failuresLeft = 2;
      const reactor: Reactor = {
        name: `retry-${tag}`,
        filter: { eventTypes: [`Ping${tag}`] },
        async handle(events) {
          if (events.some((e) => (e.data as { n: number }).n === 2) && failuresLeft-- > 0) throw new Error('provider down');
          seen.push(...events.map((e) => String((e.data as { n: number }).n)));
        },
      };
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], { batchSize: 1 });
      await runtime.start();
      try {
        for (const n of [1, 2, 3])
          await store.append(`ping-${tag}`, [{ id: randomUUID(), type: `Ping${tag}`, data: { n }, metadata: meta }]);
        await eventually(() => seen.length >= 3);
        expect(seen).toEqual(['1', '2', '3']);
        expect(failuresLeft).toBe(-1);
        // The checkpoint moves after the handler returns: wait for it, then it has counted each event once.
        await eventually(async () => (await runtime.status())[0].eventsHandled >= 3);
        const [status] = await runtime.status();
        expect(status.eventsHandled).toBe(3);
      } finally {
        await runtime.stop();
      }
    });

    it('names the reactors still in a batch when a stop waits for them', async () => {
      const tag = randomUUID().slice(0, 8);
      const entered = opened();
      const release = opened();
      const reactor: Reactor = {
        name: `slow-stop-${tag}`,
        filter: { eventTypes: [`Hold${tag}`] },
        async handle() {
          entered.resolve();
          await release.promise;
        },
      };
      const warned: object[] = [];
      const logger = { info: () => undefined, error: () => undefined, warn: (obj: object) => void warned.push(obj) };
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], { batchSize: 1, logger });
      await runtime.start();
      await store.append(`hold-${tag}`, [{ id: randomUUID(), type: `Hold${tag}`, data: {}, metadata: meta }]);
      await entered.promise;
      const stopped = runtime.stop(1);
      try {
        await eventually(() => warned.length > 0);
        expect(warned).toEqual([{ reactors: [`slow-stop-${tag}`] }]);
      } finally {
        release.resolve();
        await stopped;
      }
    });

    it('runs streams of one batch in parallel while keeping each stream in order', async () => {
      const tag = randomUUID().slice(0, 8);
      const perStream = new Map<string, number[]>();
      let inFlight = 0;
      let maxInFlight = 0;
      const reactor: Reactor = {
        name: `parallel-${tag}`,
        filter: { eventTypes: [`Step${tag}`] },
        concurrency: 4,
        async handle(events) {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((r) => setTimeout(r, 20));
          for (const e of events) {
            const list = perStream.get(e.streamId) ?? [];
            list.push((e.data as { n: number }).n);
            perStream.set(e.streamId, list);
          }
          inFlight--;
        },
      };
      let last = '';
      for (let s = 0; s < 8; s++) {
        for (let n = 0; n < 3; n++)
          last = (await store.append(`run-${tag}-${s}`, [{ id: randomUUID(), type: `Step${tag}`, data: { n }, metadata: meta }])).position;
      }
      await eventually(async () => (await store.headPosition()) >= last);
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], { batchSize: 100 });
      expect(await runtime.drain(reactor.name)).toBe(24);
      expect([...perStream.values()].every((ns) => ns.join() === '0,1,2')).toBe(true);
      expect(perStream.size).toBe(8);
      expect(maxInFlight).toBeGreaterThan(1);
      expect(maxInFlight).toBeLessThanOrEqual(4);
    });

    it('a reactor starting from the end ignores history', async () => {
      const tag = randomUUID().slice(0, 8);
      const old = await store.append(`old-${tag}`, [{ id: randomUUID(), type: `Old${tag}`, data: {}, metadata: meta }]);
      // 'The end' is the head: once the old event is readable, it is behind it.
      await eventually(async () => (await store.headPosition()) >= old.position);
      const seen: RecordedEvent[] = [];
      const reactor: Reactor = {
        name: `tail-${tag}`,
        filter: { eventTypes: [`Old${tag}`] },
        startFrom: 'end',
        handle: async (e) => void seen.push(...e),
      };
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], { batchSize: 10 });
      expect(await runtime.drain(reactor.name)).toBe(0);
      const fresh = await store.append(`old-${tag}`, [{ id: randomUUID(), type: `Old${tag}`, data: { fresh: true }, metadata: meta }]);
      await eventually(async () => (await store.headPosition()) >= fresh.position);
      // A read may still stop short of it (the visible bound errs low while another database's
      // transaction ends, ADR 0168): drain until it has been handled, and count.
      let handled = 0;
      await eventually(async () => (handled += await runtime.drain(reactor.name)) >= 1);
      expect(handled).toBe(1);
      expect(seen.map((e) => e.data)).toEqual([{ fresh: true }]);
    });
    it('a batch handled with no effect is not written at once: a later batch writes it, a restart looks at it again', async () => {
      const tag = randomUUID().slice(0, 8);
      const seen: number[] = [];
      const reactor: Reactor = {
        name: `noop-${tag}`,
        filter: { eventTypes: [`Maybe${tag}`] },
        async handle(events) {
          seen.push(...events.map((e) => (e.data as { n: number }).n));
          return events.some((e) => (e.data as { act: boolean }).act) ? undefined : NOTHING_DONE;
        },
      };
      const append = (n: number, act: boolean) =>
        store.append(`maybe-${tag}`, [{ id: randomUUID(), type: `Maybe${tag}`, data: { n, act }, metadata: meta }]);
      const row = () => checkpointRow(reactor.name);
      // No write for skipped progress within the test, however slow the machine.
      const options = { batchSize: 100, persistSkippedEveryMs: 600_000 };
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], options);
      await runtime.createCheckpoints();
      const initial = await row();
      const first = await append(1, false);
      await eventually(async () => (await store.headPosition()) >= first.position);
      expect(await runtime.drain(reactor.name)).toBe(1);
      expect(await row()).toEqual(initial);

      // A restart (a fresh runtime) starts from the row: it looks at the event again.
      const restarted = new ReactorRuntime(store, db.database.dataSource, [reactor], options);
      expect(await restarted.drain(reactor.name)).toBe(1);
      expect(seen).toEqual([1, 1]);

      // An event with an effect writes the checkpoint, counting what was handled before it.
      const second = await append(2, true);
      await eventually(async () => (await store.headPosition()) >= second.position);
      expect(await restarted.drain(reactor.name)).toBe(1);
      expect(await row()).toEqual({ position: second.position, events_handled: '2' });
      expect(seen).toEqual([1, 1, 2]);
    });

    it('a replayable reactor acting on a batch is not written at once either; a clean stop writes it', async () => {
      const tag = randomUUID().slice(0, 8);
      const seen: number[] = [];
      const reactor: Reactor = {
        name: `replayable-${tag}`,
        filter: { eventTypes: [`Again${tag}`] },
        replayable: true,
        async handle(events) {
          seen.push(...events.map((e) => (e.data as { n: number }).n));
        },
      };
      const row = () => checkpointRow(reactor.name);
      const options = { batchSize: 100, persistSkippedEveryMs: 600_000 };
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], options);
      await runtime.createCheckpoints();
      const initial = await row();
      const appended = await store.append(`again-${tag}`, [{ id: randomUUID(), type: `Again${tag}`, data: { n: 1 }, metadata: meta }]);
      await eventually(async () => (await store.headPosition()) >= appended.position);
      expect(await runtime.drain(reactor.name)).toBe(1);
      expect(await row()).toEqual(initial);
      // A crash now would hand the event again (a fresh runtime reads the row).
      expect(await new ReactorRuntime(store, db.database.dataSource, [reactor], options).drain(reactor.name)).toBe(1);
      expect(seen).toEqual([1, 1]);
      // A clean stop writes how far it got.
      await runtime.start();
      await runtime.stop();
      expect((await row()).position >= appended.position).toBe(true);
      expect(await new ReactorRuntime(store, db.database.dataSource, [reactor], options).drain(reactor.name)).toBe(0);
      expect(seen).toEqual([1, 1]);
    });

    it('a reactor reading ahead gets the next full batch read and prepared while it handles the one before', async () => {
      const tag = randomUUID().slice(0, 8);
      const prepared: (readonly RecordedEvent[])[] = [];
      const handled: number[][] = [];
      let preparedBeforeHandled = 0;
      const reactor: Reactor = {
        name: `ahead-${tag}`,
        filter: { eventTypes: [`Ahead${tag}`] },
        readAhead: true,
        repeatsTolerated: true,
        batchSize: 2,
        prepare: (events) => void prepared.push(events),
        async handle(events) {
          if (prepared.includes(events)) preparedBeforeHandled++;
          // The first batch is held until the second one has been read and prepared.
          if (handled.length === 0) await eventually(() => prepared.length >= 2);
          handled.push(events.map((e) => (e.data as { n: number }).n));
        },
      };
      let last = '';
      for (let n = 1; n <= 5; n++)
        last = (await store.append(`ahead-${tag}`, [{ id: randomUUID(), type: `Ahead${tag}`, data: { n }, metadata: meta }])).position;
      await eventually(async () => (await store.headPosition()) >= last);
      const options = { batchSize: 100, persistSkippedEveryMs: 600_000 };
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], options);
      await runtime.createCheckpoints();
      const initial = await checkpointRow(reactor.name);
      expect(await runtime.drain(reactor.name)).toBe(5);
      expect(handled).toEqual([[1, 2], [3, 4], [5]]);
      // Every batch was handed to handle as the array prepare saw; the last (not full) page was
      // the end: nothing after it was read ahead.
      expect(preparedBeforeHandled).toBe(3);
      expect(prepared.map((p) => p.length)).toEqual([2, 2, 1]);
      // Its repeats are tolerated: the checkpoint is not written after each batch that acted ...
      expect(await checkpointRow(reactor.name)).toEqual(initial);
      // ... a clean stop (or a later batch, 500 ms on by default) writes it.
      await runtime.stop();
      const row = await checkpointRow(reactor.name);
      expect(row.events_handled).toBe('5');
      expect(row.position >= last).toBe(true);
    });

    it('says a reactor is behind while its last page was at least half a batch, and not once a page is shorter', async () => {
      const tag = randomUUID().slice(0, 8);
      const reactor: Reactor = {
        name: `behind-${tag}`,
        filter: { eventTypes: [`Behind${tag}`] },
        batchSize: 4,
        async handle() {},
      };
      let last = '';
      for (let n = 1; n <= 7; n++)
        last = (await store.append(`behind-${tag}`, [{ id: randomUUID(), type: `Behind${tag}`, data: { n }, metadata: meta }])).position;
      await eventually(async () => (await store.headPosition()) >= last);
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], { batchSize: 100 });
      await runtime.createCheckpoints();
      try {
        // Nothing read yet: not behind.
        expect(runtime.behind(reactor.name)).toBe(false);
        expect((await runtime.step(reactor)).handled).toBe(4);
        expect(runtime.behind(reactor.name)).toBe(true);
        // Three of four is still at least half a batch.
        expect((await runtime.step(reactor)).handled).toBe(3);
        expect(runtime.behind(reactor.name)).toBe(true);
        // An empty page: caught up.
        expect((await runtime.step(reactor)).handled).toBe(0);
        expect(runtime.behind(reactor.name)).toBe(false);
        // A page of one is less than half a batch.
        await store.append(`behind-${tag}`, [{ id: randomUUID(), type: `Behind${tag}`, data: { n: 8 }, metadata: meta }]);
        await eventually(async () => (await runtime.step(reactor)).handled === 1);
        expect(runtime.behind(reactor.name)).toBe(false);
        // Other names were never behind.
        expect(runtime.behind(`other-${tag}`)).toBe(false);
      } finally {
        await runtime.stop();
      }
    });

    it('while the log may still be replaced by an import, reads its row before acting on a page', async () => {
      const tag = randomUUID().slice(0, 8);
      const handled: number[] = [];
      let skipped = 0;
      const reactor: Reactor = {
        name: `Boot-${tag}`,
        filter: { eventTypes: [`Boot${tag}`] },
        async handle(events) {
          handled.push(events.length);
        },
        skipped: () => skipped++,
      };
      const runtime = new ReactorRuntime(store, db.database.dataSource, [reactor], { batchSize: 100 });
      await runtime.createCheckpoints();
      const event = (actor: string) => ({ id: randomUUID(), type: `Boot${tag}`, data: {}, metadata: { ...meta, actor } });
      // Only a first start's events so far: an import may still replace them.
      const first = await store.append(`boot-${tag}`, [event('system:bootstrap')]);
      await eventually(async () => (await store.headPosition()) >= first.position);
      expect(await runtime.drain(reactor.name)).toBe(1);
      // An import commits its events with the rows moved past them: they are not acted on here.
      const imported = await store.append(`boot-${tag}`, [event('someone')]);
      await eventually(async () => (await store.headPosition()) >= imported.position);
      await db.database.dataSource.query('UPDATE reactor_checkpoints SET position = $2 WHERE name = $1', [reactor.name, imported.position]);
      expect(await runtime.drain(reactor.name)).toBe(0);
      expect(handled).toEqual([1]);
      // The reactor is told that it was moved past events it was not given.
      expect(skipped).toBe(1);
    });

    it('reactors finishing together move their checkpoints in one statement, each still a compare-and-set', async () => {
      const tag = randomUUID().slice(0, 8);
      // Both handlers return together, so both checkpoint writes are asked for in one turn.
      let gate = opened();
      let arrived = 0;
      const skipped: string[] = [];
      const reactor = (name: string): Reactor => ({
        name: `${name}-${tag}`,
        filter: { eventTypes: [`${name}${tag}`] },
        async handle() {
          if (++arrived === 2) gate.resolve();
          await gate.promise;
        },
        skipped: () => skipped.push(name),
      });
      const [a, b] = [reactor('Left'), reactor('Right')];
      const append = () =>
        store.append(`pair-${tag}`, [
          { id: randomUUID(), type: `Left${tag}`, data: {}, metadata: meta },
          { id: randomUUID(), type: `Right${tag}`, data: {}, metadata: meta },
        ]);
      const checkpoint = async (name: string) =>
        (await db.database.dataSource.query('SELECT position FROM reactor_checkpoints WHERE name = $1', [name]))[0].position as string;
      const runtime = new ReactorRuntime(store, db.database.dataSource, [a, b], { batchSize: 100 });
      await runtime.createCheckpoints();
      const query = jest.spyOn(db.database.dataSource, 'query');
      const moves = () => query.mock.calls.filter(([sql]) => /UPDATE reactor_checkpoints/.test(sql)).length;
      try {
        const first = await append();
        await eventually(async () => (await store.headPosition()) >= first.position);
        expect(await Promise.all([runtime.drain(a.name), runtime.drain(b.name)])).toEqual([1, 1]);
        expect(moves()).toBe(1);
        expect(skipped).toEqual([]);
        expect(await checkpoint(a.name)).toBe(first.position);
        expect(await checkpoint(b.name)).toBe(first.position);

        // Another worker handled Left's next event first: Left's write finds its row moved (its
        // effects are idempotent), Right handles and moves. An import can no longer move rows
        // here (the log holds events of its own), so Left does not read its row before acting.
        gate = opened();
        arrived = 0;
        const second = await append();
        await eventually(async () => (await store.headPosition()) >= second.position);
        await db.database.dataSource.query('UPDATE reactor_checkpoints SET position = $2 WHERE name = $1', [a.name, second.position]);
        const calls = moves();
        expect(await Promise.all([runtime.drain(a.name), runtime.drain(b.name)])).toEqual([1, 1]);
        expect(moves() - calls).toBe(1);
        expect(await checkpoint(a.name)).toBe(second.position);
        expect(await checkpoint(b.name)).toBe(second.position);
        expect((await runtime.status()).map((s) => s.eventsHandled)).toEqual([1, 2]);
        // Left continues from where the other worker put it, and is told so.
        expect(skipped).toEqual(['Left']);
      } finally {
        query.mockRestore();
      }
    });
  });
}
