import { RecipientRefT } from '@notify/contracts';
import { RunEnqueuedData, WorkflowTriggeredData, workflowRunStream } from '@notify/domain';
import { DuplicateEventIdError, EventStore, PostgresEventStore, RecordedEvent, StreamAppend } from '@notify/eventstore';
import { createTestDatabase, databaseBackends, readAllWritten, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { Fanout } from './fanout';
import type { EngineLookups } from './lookups';

/**
 * A fan-out to an object's subscribers stopped after some chunks were appended and done again
 * later, when the subscribers changed meanwhile so the chunks are cut differently: each
 * subscriber gets exactly one run, whoever was appended before the stop.
 */
const ENV = 'test';
const PAGE = 1000;

/** The object's subscribers, paged in their order as the read model pages them. */
function lookupsOver(subscribers: () => string[]): EngineLookups {
  return {
    subscribers: async (_env: string, _collection: string, _id: string, after?: string) => {
      const all = subscribers();
      const from = after ? all.findIndex((id) => id > after) : 0;
      const page = from < 0 ? [] : all.slice(from, from + PAGE);
      const recipients: RecipientRefT[] = page.map((id) => ({ type: 'user', id }));
      return { recipients, after: page.length === PAGE ? page[page.length - 1] : null };
    },
  } as unknown as EngineLookups;
}

for (const backend of databaseBackends()) {
  describe(`fan-out to an object's subscribers on ${backend}: resumed after a stop, one run each`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({ pool: db.database.pool });
    });

    afterAll(async () => {
      await store?.close();
      await db?.close();
    });

    async function trigger(): Promise<RecordedEvent> {
      const runId = randomUUID();
      const data: WorkflowTriggeredData = {
        workflow_run_id: runId,
        workflow: {
          key: 'news',
          version: 'v1',
          categories: [],
          steps: [],
          conditions: null,
          settings: {},
          trigger_frequency: 'every_trigger',
        },
        actor: null,
        recipients: [{ type: 'object', collection: 'teams', id: 'everyone' }],
        tenant: null,
        data: {},
        cancellation_key: null,
        settings: { sandbox_mode: false, skip_delay: false },
        trigger_source: { type: 'api' },
        triggered_at: '2030-01-01T00:00:00.000Z',
      } as unknown as WorkflowTriggeredData;
      await store.append(workflowRunStream(ENV, runId), [
        { id: randomUUID(), type: 'WorkflowTriggered', data, metadata: { environment: ENV, actor: 'test', schema_version: 1 } },
      ]);
      const [event] = await store.readStream(workflowRunStream(ENV, runId));
      return event;
    }

    /** A fan-out by a worker that stops (its second append fails) once its first chunk of bare runs is in the log. */
    async function stoppedAfterFirstChunk(triggered: RecordedEvent, subscribers: () => string[]): Promise<void> {
      let appends = 0;
      const stopping = {
        appendMany: async (batch: readonly StreamAppend[]) => {
          if (++appends > 1) throw new Error('worker stopped');
          return store.appendMany(batch);
        },
        readStreams: (ids: readonly string[]) => store.readStreams(ids),
      } as unknown as EventStore;
      await expect(new Fanout(stopping, lookupsOver(subscribers)).fanOut(triggered)).rejects.toThrow('worker stopped');
    }

    async function runsOf(workflowRunId: string): Promise<Map<string, number>> {
      const counts = new Map<string, number>();
      for (const e of await readAllWritten(store, { filter: { eventTypes: ['RunEnqueued'] } })) {
        const run = e.data as RunEnqueuedData;
        if (run.workflow_run_id !== workflowRunId || run.recipient.type !== 'user') continue;
        counts.set(run.recipient.id, (counts.get(run.recipient.id) ?? 0) + 1);
      }
      return counts;
    }

    it('appends the runs a stopped fan-out had not, once each, when the chunks fall differently', async () => {
      let subscribers = Array.from({ length: 1500 }, (_, i) => `u${String(i).padStart(5, '0')}`);
      const triggered = await trigger();

      // The first worker stops after its first chunk of runs is in the log.
      await stoppedAfterFirstChunk(triggered, () => subscribers);
      const before = await runsOf((triggered.data as WorkflowTriggeredData).workflow_run_id);
      expect(before.size).toBeGreaterThan(0);
      expect(before.size).toBeLessThan(1500);

      // Meanwhile subscribers joined at the front (every chunk boundary moves) and one of the
      // already enqueued left: the next fan-out's chunks mix stored runs with new ones.
      const joined = Array.from({ length: 300 }, (_, i) => `a${String(i).padStart(5, '0')}`);
      const left = [...before.keys()][0];
      subscribers = [...joined, ...subscribers.filter((id) => id !== left)];
      await new Fanout(
        store,
        lookupsOver(() => subscribers),
      ).fanOut(triggered);

      const after = await runsOf((triggered.data as WorkflowTriggeredData).workflow_run_id);
      expect([...after.values()].every((n) => n === 1)).toBe(true);
      // Everyone subscribed now, and whoever had a run before the stop (the one who left too).
      expect([...after.keys()].sort()).toEqual([...new Set([...subscribers, ...before.keys()])].sort());
    });

    it('with a planner, appends each chunk with its plan, plans the next chunk while one is appended, leaves bare a chunk stored before a stop, and says it is under way until it ends (ADR 0287)', async () => {
      const subscribers = Array.from({ length: 2500 }, (_, i) => `p${String(i).padStart(5, '0')}`);
      const triggered = await trigger();
      const workflowRunId = (triggered.data as WorkflowTriggeredData).workflow_run_id;
      // A first worker, without a planner, stops after its first chunk of bare runs is in the log.
      await stoppedAfterFirstChunk(triggered, () => subscribers);

      // The planner decides one event per run (a stand-in for its decisions), after its RunEnqueued.
      const planned: string[][] = [];
      let chunkThreePlanned!: () => void;
      const chunkThree = new Promise<void>((resolve) => (chunkThreePlanned = resolve));
      const planRuns = async (_env: string, _trigger: WorkflowTriggeredData, runs: readonly StreamAppend[]) => {
        planned.push(runs.map((r) => r.expectedRevision as string));
        if (planned.length === 3) chunkThreePlanned();
        return runs.map((r) => ({
          ...r,
          events: [
            ...r.events,
            { id: randomUUID(), type: 'RunDecidedForTest', data: {}, metadata: { environment: ENV, schema_version: 1 } },
          ],
        }));
      };
      // The second chunk's append is held until the third chunk is planned: they overlap.
      let held = false;
      const holding = {
        atomicMultiStreamAppend: true,
        appendMany: async (batch: readonly StreamAppend[]) => {
          // The first planned append of the second chunk (its first run is the 1,000th subscriber's).
          const first = batch[0].events[0];
          if (batch[0].events.length === 2 && (first.data as RunEnqueuedData).recipient.id === subscribers[999]) {
            held = true;
            await Promise.race([
              chunkThree,
              new Promise((_, reject) =>
                setTimeout(() => reject(new Error('the next chunk was not planned during an append')), 10_000).unref(),
              ),
            ]);
          }
          return store.appendMany(batch);
        },
        readStreams: (ids: readonly string[]) => store.readStreams(ids),
      } as unknown as EventStore;
      const fanout = new Fanout(
        holding,
        lookupsOver(() => subscribers),
        planRuns,
      );
      expect(fanout.fanningOut).toBe(false);
      const spreading = fanout.fanOut(triggered);
      // Under way until it ends: the run history yields to it meanwhile.
      expect(fanout.fanningOut).toBe(true);
      expect(await spreading).toBe(2501);
      expect(fanout.fanningOut).toBe(false);

      // Every chunk was planned (the object's own run first, then its subscribers'), each run as a stream its plan creates.
      expect(planned.map((p) => p.length)).toEqual([1000, 1000, 501]);
      expect(planned.flat().every((r) => r === 'no_stream')).toBe(true);
      expect(held).toBe(true);
      // One run each; the first chunk's runs, stored bare before the stop, stay bare; the others carry their plan.
      const runs = await runsOf(workflowRunId);
      expect(runs.size).toBe(2500);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      const decided = await readAllWritten(store, { filter: { eventTypes: ['RunDecidedForTest'] } });
      const streams = new Set(decided.map((e) => e.streamId));
      const enqueued = (await readAllWritten(store, { filter: { eventTypes: ['RunEnqueued'] } })).filter(
        (e) => (e.data as RunEnqueuedData).workflow_run_id === workflowRunId,
      );
      const withPlan = enqueued.filter((e) => streams.has(e.streamId)).map((e) => (e.data as RunEnqueuedData).recipient.id);
      expect(withPlan.sort()).toEqual(subscribers.slice(999));
    });

    it('still refuses an event id stored for another stream (not a resumed chunk)', async () => {
      const triggered = await trigger();
      const subscribers = ['u1', 'u2'];
      // A store that answers as if the runs' event ids were stored on other streams: none of this trigger's runs is in the log.
      const colliding = {
        appendMany: async (batch: readonly StreamAppend[]) => {
          const stored = await store.readStreams(batch.map((a) => a.streamId));
          if ([...stored.values()].every((events) => events.length === 0)) throw new DuplicateEventIdError(['x']);
          return store.appendMany(batch);
        },
        readStreams: (ids: readonly string[]) => store.readStreams(ids),
      } as unknown as EventStore;
      await expect(
        new Fanout(
          colliding,
          lookupsOver(() => subscribers),
        ).fanOut(triggered),
      ).rejects.toBeInstanceOf(DuplicateEventIdError);
    });
  });
}
