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
      let appends = 0;
      const stopping = {
        appendMany: async (batch: readonly StreamAppend[]) => {
          if (++appends > 1) throw new Error('worker stopped');
          return store.appendMany(batch);
        },
        readStreams: (ids: readonly string[]) => store.readStreams(ids),
      } as unknown as EventStore;
      await expect(
        new Fanout(
          stopping,
          lookupsOver(() => subscribers),
        ).fanOut(triggered),
      ).rejects.toThrow('worker stopped');
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
