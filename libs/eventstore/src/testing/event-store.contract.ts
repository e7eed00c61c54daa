import { randomUUID } from 'node:crypto';
import { EventStore, EventToAppend, RecordedEvent, START, WrongExpectedRevisionError } from '../event-store';
import { CatchUpSubscription } from '../subscription';

export interface ContractTarget {
  store: EventStore;
  close(): Promise<void>;
}

const meta = { environment: 'test', schema_version: 1 };
const event = (type: string, data: Record<string, unknown> = {}): EventToAppend => ({ id: randomUUID(), type, data, metadata: meta });

/** Waits for a state; the deadline is generous (a loaded machine), nothing is timed. */
async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * The behaviour every EventStore adapter must have. Each adapter's spec calls this with a
 * factory for a fresh, empty store; stream names are unique per test so tests do not interfere.
 */
export function eventStoreContract(open: () => Promise<ContractTarget>): void {
  let target: ContractTarget;
  let store: EventStore;
  const stream = (label: string) => `${label}-${randomUUID()}`;
  /** readAll shows a commit once every older transaction on the server has finished. */
  const visible = async (position: string) => until(async () => (await store.headPosition()) >= position);

  beforeAll(async () => {
    target = await open();
    store = target.store;
  });
  afterAll(async () => {
    await target?.close();
  });

  describe('append', () => {
    it('creates a stream with no_stream and numbers its events from 0', async () => {
      const id = stream('order');
      const result = await store.append(id, [event('Placed', { n: 1 }), event('Paid', { n: 2 })], { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(1);
      const read = await store.readStream(id);
      expect(read.map((e) => [e.type, e.revision, e.data])).toEqual([
        ['Placed', 0, { n: 1 }],
        ['Paid', 1, { n: 2 }],
      ]);
      expect(read[1].metadata).toMatchObject(meta);
      expect(read[1].position).toBe(result.position);
      expect(read[1].globalPosition).toBe(result.globalPosition);
      expect(read[0].createdAt).toBeInstanceOf(Date);
    });

    it('rejects no_stream on an existing stream, reporting the actual revision', async () => {
      const id = stream('order');
      await store.append(id, [event('Placed')], { expectedRevision: 'no_stream' });
      const failure = await store.append(id, [event('Placed')], { expectedRevision: 'no_stream' }).catch((e) => e);
      expect(failure).toBeInstanceOf(WrongExpectedRevisionError);
      expect(failure).toMatchObject({ streamId: id, actual: 0 });
      expect(await store.readStream(id)).toHaveLength(1);
    });

    it('appends at an exact revision and rejects a stale one', async () => {
      const id = stream('order');
      await store.append(id, [event('A')], { expectedRevision: 'no_stream' });
      await store.append(id, [event('B')], { expectedRevision: 0 });
      const stale = await store.append(id, [event('C')], { expectedRevision: 0 }).catch((e) => e);
      expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
      expect(stale).toMatchObject({ actual: 1 });
      expect((await store.readStream(id)).map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('rejects an exact revision and stream_exists on a missing stream', async () => {
      const id = stream('order');
      await expect(store.append(id, [event('A')], { expectedRevision: 3 })).rejects.toMatchObject({ actual: 'no_stream' });
      await expect(store.append(id, [event('A')], { expectedRevision: 'stream_exists' })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      expect(await store.readStream(id)).toEqual([]);
    });

    it('appends with any, whatever the stream holds', async () => {
      const id = stream('order');
      await store.append(id, [event('A')], { expectedRevision: 'any' });
      const result = await store.append(id, [event('B')]);
      expect(result.nextExpectedRevision).toBe(1);
      await store.append(id, [event('C')], { expectedRevision: 'stream_exists' });
      expect((await store.readStream(id)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
    });

    it('is idempotent by event id: repeating an append changes nothing and answers the same', async () => {
      const id = stream('order');
      const batch = [event('A'), event('B')];
      const first = await store.append(id, batch, { expectedRevision: 'no_stream' });
      const again = await store.append(id, batch, { expectedRevision: 'no_stream' });
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(again.position).toBe(first.position);
      const anyAgain = await store.append(id, batch, { expectedRevision: 'any' });
      expect(anyAgain.position).toBe(first.position);
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('runs concurrent appends with one expected revision so that exactly one wins', async () => {
      const id = stream('counter');
      await store.append(id, [event('Opened')], { expectedRevision: 'no_stream' });
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) => store.append(id, [event('Incremented', { i })], { expectedRevision: 0 })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'))
        expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(id)).toHaveLength(2);
    });
  });

  describe('appendMany', () => {
    it('appends to several streams, each with its own expected revision', async () => {
      const a = stream('many');
      const b = stream('many');
      await store.append(b, [event('B0')]);
      const results = await store.appendMany([
        { streamId: a, events: [event('A0'), event('A1')], expectedRevision: 'no_stream' },
        { streamId: b, events: [event('B1')], expectedRevision: 0 },
      ]);
      expect(results.map((r) => [r.streamId, r.nextExpectedRevision])).toEqual([
        [a, 1],
        [b, 1],
      ]);
      expect((await store.readStream(a)).map((e) => e.type)).toEqual(['A0', 'A1']);
      expect((await store.readStream(b)).map((e) => e.type)).toEqual(['B0', 'B1']);
    });

    it('is idempotent by event id across streams', async () => {
      const a = stream('many');
      const b = stream('many');
      const batch = [
        { streamId: a, events: [event('A0')], expectedRevision: 'no_stream' as const },
        { streamId: b, events: [event('B0')], expectedRevision: 'no_stream' as const },
      ];
      const first = await store.appendMany(batch);
      const again = await store.appendMany(batch);
      expect(again.map((r) => r.position)).toEqual(first.map((r) => r.position));
      expect(await store.readStream(a)).toHaveLength(1);
      expect(await store.readStream(b)).toHaveLength(1);
    });

    it('writes nothing when one stream fails its expected revision, where the store is atomic', async () => {
      const a = stream('many');
      const b = stream('many');
      await store.append(b, [event('B0')]);
      const failure = await store
        .appendMany([
          { streamId: a, events: [event('A0')], expectedRevision: 'no_stream' },
          { streamId: b, events: [event('B1')], expectedRevision: 'no_stream' },
        ])
        .catch((e) => e);
      expect(failure).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(a)).toHaveLength(store.atomicMultiStreamAppend ? 0 : 1);
      expect(await store.readStream(b)).toHaveLength(1);
    });

    it('gives the newest committed position as an upper bound the head reaches', async () => {
      const { position } = await store.append(stream('newest'), [event('A', {}), event('B', {})]);
      // At once, whatever other transactions the server has open: it is not held back by them.
      expect(await store.newestPosition()).toBe(position);
      await visible(position);
      expect(await store.headPosition()).toBe(position);
    });

    it('keeps each stream in order in the log when multi-stream and single appends race', async () => {
      const shared = stream('contended');
      const start = await store.headPosition();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 2
            ? store.append(shared, [event('Single', { i })])
            : store.appendMany([
                { streamId: stream('other'), events: [event('Other', { i })] },
                { streamId: shared, events: [event('Multi', { i })] },
              ]),
        ),
      );
      await visible(
        results
          .flat()
          .map((r) => r.position)
          .sort()
          .pop()!,
      );
      const page = await store.readAll({ after: start, maxCount: 1000, filter: { streamPrefixes: [shared] } });
      expect(page.events.map((e) => e.revision)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    });
  });

  describe('readStream', () => {
    it('reads forwards and backwards from a revision with a limit', async () => {
      const id = stream('letters');
      await store.append(
        id,
        ['a', 'b', 'c', 'd', 'e'].map((l) => event('Letter', { l })),
      );
      const letters = (events: RecordedEvent[]) => events.map((e) => (e.data as { l: string }).l).join('');
      expect(letters(await store.readStream(id))).toBe('abcde');
      expect(letters(await store.readStream(id, { fromRevision: 2 }))).toBe('cde');
      expect(letters(await store.readStream(id, { fromRevision: 1, maxCount: 2 }))).toBe('bc');
      expect(letters(await store.readStream(id, { direction: 'backwards' }))).toBe('edcba');
      expect(letters(await store.readStream(id, { direction: 'backwards', fromRevision: 2, maxCount: 2 }))).toBe('cb');
    });

    it('returns nothing for a stream that does not exist', async () => {
      expect(await store.readStream(stream('ghost'))).toEqual([]);
    });

    it('reads several streams at once, each in order, missing ones empty', async () => {
      const a = stream('many-read');
      const b = stream('many-read');
      const ghost = stream('ghost');
      await store.append(a, [event('A0'), event('A1')]);
      await store.append(b, [event('B0')]);
      await store.append(a, [event('A2')]);
      const read = await store.readStreams([a, b, ghost]);
      expect(read.get(a)!.map((e) => e.type)).toEqual(['A0', 'A1', 'A2']);
      expect(read.get(b)!.map((e) => e.type)).toEqual(['B0']);
      expect(read.get(ghost)).toEqual([]);
    });
  });

  describe('readAll', () => {
    it('returns every event after a position, in commit order with increasing positions', async () => {
      const start = await store.headPosition();
      const a = stream('alpha');
      const b = stream('beta');
      await store.append(a, [event('A1'), event('A2')]);
      await store.append(b, [event('B1')]);
      await visible((await store.append(a, [event('A3')])).position);
      const page = await store.readAll({ after: start, maxCount: 100 });
      const mine = page.events.filter((e) => e.streamId === a || e.streamId === b);
      expect(mine.map((e) => e.type)).toEqual(['A1', 'A2', 'B1', 'A3']);
      for (let i = 1; i < page.events.length; i++) expect(page.events[i].position > page.events[i - 1].position).toBe(true);
      const rest = await store.readAll({ after: mine[1].position, maxCount: 100 });
      expect(rest.events.filter((e) => e.streamId === a || e.streamId === b).map((e) => e.type)).toEqual(['B1', 'A3']);
      expect(page.scannedTo >= mine[3].position).toBe(true);
    });

    it('pages with maxCount without losing or repeating events', async () => {
      const start = await store.headPosition();
      const id = stream('paged');
      await visible(
        (
          await store.append(
            id,
            Array.from({ length: 7 }, (_, i) => event('N', { i })),
          )
        ).position,
      );
      const seen: number[] = [];
      let after = start;
      for (;;) {
        const page = await store.readAll({ after, maxCount: 3 });
        if (page.events.length === 0) break;
        seen.push(...page.events.filter((e) => e.streamId === id).map((e) => (e.data as { i: number }).i));
        after = page.scannedTo;
      }
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    });

    it('filters by event type and by stream prefix, and reports how far it scanned', async () => {
      const start = await store.headPosition();
      const tag = randomUUID().slice(0, 8);
      const users = `user-${tag}`;
      await store.append(`${users}-1`, [event(`Identified${tag}`), event(`Deleted${tag}`)]);
      await store.append(`tenant-${tag}-1`, [event(`Identified${tag}`)]);
      const last = await store.append(`${users}-2`, [event(`Identified${tag}`)]);
      await visible(last.position);
      const byType = await store.readAll({ after: start, filter: { eventTypes: [`Deleted${tag}`] } });
      expect(byType.events.map((e) => e.streamId)).toEqual([`${users}-1`]);
      expect(byType.scannedTo >= last.position).toBe(true);
      const byPrefix = await store.readAll({ after: start, filter: { streamPrefixes: [users] } });
      expect(byPrefix.events.map((e) => `${e.streamId}:${e.type}`)).toEqual([
        `${users}-1:Identified${tag}`,
        `${users}-1:Deleted${tag}`,
        `${users}-2:Identified${tag}`,
      ]);
      const both = await store.readAll({ after: start, filter: { streamPrefixes: [users], eventTypes: [`Identified${tag}`] } });
      expect(both.events).toHaveLength(2);
      const none = await store.readAll({ after: start, filter: { eventTypes: ['NeverWritten'] } });
      expect(none.events).toEqual([]);
      expect(none.scannedTo >= last.position).toBe(true);
    });

    it('treats prefix wildcards literally', async () => {
      const start = await store.headPosition();
      const tag = randomUUID().slice(0, 8);
      await store.append(`a_${tag}-1`, [event('X')]);
      await visible((await store.append(`ab${tag}-1`, [event('X')])).position);
      const page = await store.readAll({ after: start, filter: { streamPrefixes: [`a_${tag}`] } });
      expect(page.events.map((e) => e.streamId)).toEqual([`a_${tag}-1`]);
    });
  });

  describe('subscriptions', () => {
    it('delivers from a checkpoint every later event exactly once, live', async () => {
      const id = stream('live');
      const before = await store.append(id, [event('Before')]);
      // The head lags a commit while an older transaction anywhere on the server is open (the
      // snapshot bound is server-wide): take the checkpoint once 'Before' is readable.
      await visible(before.position);
      const checkpoint = await store.headPosition();
      const received: RecordedEvent[] = [];
      const sub = new CatchUpSubscription(store, {
        after: checkpoint,
        filter: { streamPrefixes: [id] },
        idlePollMs: 200,
        handle: async (events) => {
          received.push(...events);
        },
      });
      try {
        await store.append(id, [event('First')]);
        await until(() => received.length >= 1);
        await store.append(id, [event('Second'), event('Third')]);
        // Once the last event is in, everything before it has been delivered: nothing more can come.
        await store.append(id, [event('Last')]);
        await until(() => received.some((e) => e.type === 'Last'));
        expect(received.map((e) => e.type)).toEqual(['First', 'Second', 'Third', 'Last']);
      } finally {
        await sub.stop();
      }
    });

    it('resumes from a stored checkpoint without repeating what was handled', async () => {
      const id = stream('resume');
      const start = await store.headPosition();
      await store.append(id, [event('One'), event('Two')]);
      const seen: string[] = [];
      let checkpoint = start;
      const first = new CatchUpSubscription(store, {
        after: start,
        filter: { streamPrefixes: [id] },
        handle: async (events, scannedTo) => {
          seen.push(...events.map((e) => e.type));
          checkpoint = scannedTo;
        },
      });
      await until(() => seen.length === 2);
      await first.stop();
      await store.append(id, [event('Three')]);
      const second = new CatchUpSubscription(store, {
        after: checkpoint,
        filter: { streamPrefixes: [id] },
        handle: async (events) => {
          seen.push(...events.map((e) => e.type));
        },
      });
      await until(() => seen.length === 3);
      await second.stop();
      expect(seen).toEqual(['One', 'Two', 'Three']);
    });
  });

  it('starts reading from START', async () => {
    const page = await store.readAll({ after: START, maxCount: 1 });
    expect(page.events.length).toBeLessThanOrEqual(1);
  });
}
