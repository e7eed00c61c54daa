import { createTestDatabase, databaseBackends, TestDatabase, waitFor } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { SharedLogReader } from './shared-log-reader';

const meta = { environment: 'test', schema_version: 1 };
const until = (probe: () => Promise<boolean> | boolean, what = 'the reader') => waitFor(probe, what);

/** Time for the reader's retention periods, moved by the test: no test waits for a period to pass. */
function manualClock() {
  let now = 1_000_000;
  return { clock: () => now, advance: (ms: number) => void (now += ms) };
}

for (const backend of databaseBackends()) {
  describe(`shared log reader on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    beforeAll(async () => {
      db = await createTestDatabase(backend, { migrate: false });
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });
    /**
     * The head once everything appended so far is readable. The head lags a commit while any
     * older transaction on the server is open (other test files share it), so a test that
     * counts what comes after its start appends a marker and starts from it, once readable.
     */
    const settledHead = async () => {
      const marker = await store.append(`marker-${randomUUID()}`, [{ id: randomUUID(), type: 'Marker', data: {}, metadata: meta }]);
      await until(async () => (await store.headPosition()) >= marker.position, 'the marker to be readable');
      return marker.position;
    };

    it('answers every read exactly as the store does, from memory once it has caught up', async () => {
      // History from before the reader started: served by the store.
      for (let i = 0; i < 5; i++)
        await store.append(`old-${randomUUID()}`, [{ id: randomUUID(), type: i % 2 ? 'Odd' : 'Even', data: { i }, metadata: meta }]);
      const reader = new SharedLogReader(store, { maxEvents: 40, clock: manualClock().clock });
      let wakeups = 0;
      const unlisten = reader.onAppended(() => wakeups++);
      try {
        const start = await settledHead();
        let last = '';
        for (let i = 0; i < 30; i++) {
          last = (
            await store.append(`new-${i % 4}-${randomUUID()}`, [
              { id: randomUUID(), type: i % 3 ? 'Tick' : 'Tock', data: { i }, metadata: meta },
            ])
          ).position;
        }
        await until(async () => (await reader.readAll({ after: start, maxCount: 1000 })).scannedTo >= last);
        expect(wakeups).toBeGreaterThan(0);
        const cases = [
          { after: '', maxCount: 100 },
          { after: start, maxCount: 100 },
          { after: start, maxCount: 7 },
          { after: start, maxCount: 100, filter: { eventTypes: ['Tock'] } },
          { after: start, maxCount: 3, filter: { eventTypes: ['Tock'] } },
          { after: start, maxCount: 100, filter: { streamPrefixes: ['new-1-'] } },
          { after: start, maxCount: 100, filter: { eventTypes: ['Nothing'] } },
        ];
        for (const options of cases) {
          const mine = await reader.readAll(options);
          const truth = await store.readAll(options);
          expect(mine.events.map((e) => e.id)).toEqual(truth.events.map((e) => e.id));
          if (truth.events.length === options.maxCount) expect(mine.scannedTo).toBe(truth.scannedTo);
          else expect(mine.scannedTo >= truth.events[truth.events.length - 1]?.position || truth.events.length === 0).toBe(true);
        }
        // More than the window holds: older reads fall back to the store and stay correct.
        for (let i = 0; i < 60; i++)
          last = (await store.append(`more-${randomUUID()}`, [{ id: randomUUID(), type: 'More', data: { i }, metadata: meta }])).position;
        await until(async () => (await reader.readAll({ after: last, maxCount: 1 })).scannedTo >= last);
        const fromStart = await reader.readAll({ after: start, maxCount: 1000 });
        expect(fromStart.events.map((e) => e.id)).toEqual((await store.readAll({ after: start, maxCount: 1000 })).events.map((e) => e.id));
      } finally {
        unlisten();
        await reader.stop();
      }
    });

    it('lets go of the events once no reader has asked for them for two periods, and stays correct', async () => {
      const time = manualClock();
      // Started after the start is settled, so that its window begins there.
      const start = await settledHead();
      const reader = new SharedLogReader(store, { maxEvents: 1000, retainMs: 100, keepRecent: 5, clock: time.clock });
      const unlisten = reader.onAppended(() => undefined);
      try {
        await reader.readAll({ after: start, maxCount: 1 }); // the reader's window starts here
        let last = '';
        for (let i = 0; i < 20; i++)
          last = (await store.append(`keep-${randomUUID()}`, [{ id: randomUUID(), type: 'Kept', data: { i }, metadata: meta }])).position;
        // A reader still at `start` keeps the window from there.
        await until(async () => (await reader.readAll({ after: start, maxCount: 1000 })).scannedTo >= last && reader.buffered >= 20);
        // However long it takes, within a period nothing is let go.
        reader.sweep();
        expect(reader.buffered).toBe(20);
        // Caught up: only reads after `last` for two periods, so everything up to it is let go but the newest five.
        await reader.readAll({ after: last, maxCount: 1000 });
        time.advance(100);
        reader.sweep();
        await reader.readAll({ after: last, maxCount: 1000 });
        time.advance(100);
        reader.sweep();
        expect(reader.buffered).toBe(5);
        time.advance(1000);
        reader.sweep();
        expect(reader.buffered).toBe(5);
        // A reader that comes back from `start` is answered by the store, in full; one within the newest five from memory.
        const again = await reader.readAll({ after: start, maxCount: 1000 });
        expect(again.events.map((e) => e.id)).toEqual((await store.readAll({ after: start, maxCount: 1000 })).events.map((e) => e.id));
        expect(again.events).toHaveLength(20);
        expect((await reader.readAll({ after: again.events[16].position, maxCount: 1000 })).events.map((e) => e.id)).toEqual(
          again.events.slice(17).map((e) => e.id),
        );
        // New events after the release are served again.
        const next = (await store.append(`keep-${randomUUID()}`, [{ id: randomUUID(), type: 'Kept', data: { i: 20 }, metadata: meta }]))
          .position;
        await until(async () => (await reader.readAll({ after: last, maxCount: 1000 })).events.some((e) => e.position === next));
        expect(reader.buffered).toBeGreaterThanOrEqual(5);
      } finally {
        unlisten();
        await reader.stop();
      }
    });

    it('keeps what a named reader has not read yet for as long as it keeps reading, however slowly', async () => {
      const time = manualClock();
      const start = await settledHead();
      const reader = new SharedLogReader(store, { maxEvents: 1000, retainMs: 50, keepRecent: 0, namedReaderMs: 10_000, clock: time.clock });
      const unlisten = reader.onAppended(() => undefined);
      try {
        await reader.readAll({ after: start, maxCount: 1, reader: 'projection:slow' });
        let last = '';
        for (let i = 0; i < 10; i++)
          last = (await store.append(`named-${randomUUID()}`, [{ id: randomUUID(), type: 'Named', data: { i }, metadata: meta }])).position;
        await until(async () => (await reader.readAll({ after: last, maxCount: 1 })).scannedTo >= last && reader.buffered >= 10);
        // Anonymous readers are all past it and the retain periods are long gone: the slow reader still holds the window.
        for (let i = 0; i < 10; i++) {
          await reader.readAll({ after: last, maxCount: 1 });
          time.advance(30);
          reader.sweep();
        }
        expect(reader.buffered).toBeGreaterThanOrEqual(10);
        const page = await reader.readAll({ after: start, maxCount: 1000, reader: 'projection:slow' });
        expect(page.events.map((e) => e.id)).toEqual((await store.readAll({ after: start, maxCount: 1000 })).events.map((e) => e.id));
        // Once it has read past them, they go.
        await reader.readAll({ after: last, maxCount: 1000, reader: 'projection:slow' });
        for (let i = 0; i < 2; i++) {
          await reader.readAll({ after: last, maxCount: 1 });
          time.advance(50);
          reader.sweep();
        }
        expect(reader.buffered).toBe(0);
        // A named reader that stops reading is forgotten after namedReaderMs, and its events go with it.
        const from = await settledHead();
        const forgotten = new SharedLogReader(store, {
          maxEvents: 1000,
          retainMs: 50,
          keepRecent: 0,
          namedReaderMs: 10_000,
          clock: time.clock,
        });
        try {
          await forgotten.readAll({ after: from, maxCount: 1, reader: 'projection:gone' });
          const end = (await store.append(`named-${randomUUID()}`, [{ id: randomUUID(), type: 'Named', data: {}, metadata: meta }]))
            .position;
          await until(async () => (await forgotten.readAll({ after: end, maxCount: 1 })).scannedTo >= end && forgotten.buffered >= 1);
          time.advance(5_000);
          forgotten.sweep();
          expect(forgotten.buffered).toBe(1);
          time.advance(5_001);
          forgotten.sweep();
          await forgotten.readAll({ after: end, maxCount: 1 });
          time.advance(50);
          forgotten.sweep();
          await forgotten.readAll({ after: end, maxCount: 1 });
          time.advance(50);
          forgotten.sweep();
          expect(forgotten.buffered).toBe(0);
        } finally {
          await forgotten.stop();
        }
      } finally {
        unlisten();
        await reader.stop();
      }
    });
  });
}
