import { runStream, workflowRunStream } from '@notify/domain';
import { type EventStore, type RecordedEvent, type StreamAppend, WrongExpectedRevisionError } from '@notify/eventstore';
import { RunExecutor } from './run-executor';
import type { EngineDeps } from './step-handler';

const environment = 'development';
const runId = '0b8a5b43-0a3e-4d6b-9d3c-2f0a3c7b1e01';
const workflowRunId = '5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const recorded = (type: string, streamId: string, data: Record<string, unknown>, n: number) =>
  ({
    id: `e${n}`,
    type,
    streamId,
    revision: n,
    globalPosition: BigInt(n),
    position: String(n).padStart(12, '0'),
    data,
    metadata: { environment, schema_version: 1 },
    createdAt: new Date('2026-11-26T12:00:00Z'),
  }) as RecordedEvent;

/** A RunEnqueued's data for one user recipient of the `welcome` workflow. */
const enqueuedData = (id: string, over: Record<string, unknown> = {}) => ({
  run_id: id,
  workflow_run_id: workflowRunId,
  workflow_key: 'welcome',
  recipient: { type: 'user', id: 'u1' },
  actor: null,
  tenant: null,
  data: {},
  cancellation_key: null,
  trigger_source: { type: 'api' },
  trigger_position: '',
  subscribed_to: null,
  enqueued_at: '2026-11-26T12:00:00Z',
  ...over,
});

/** A log holding one run that has already completed, and its trigger; counts the stream reads. */
function executorOverALog() {
  const streams = new Map<string, RecordedEvent[]>([
    [
      runStream(environment, runId),
      [
        recorded('RunEnqueued', runStream(environment, runId), enqueuedData(runId), 1),
        recorded(
          'RunCompleted',
          runStream(environment, runId),
          { run_id: runId, outcome: 'ended', reason: null, at: '2026-11-26T12:00:01Z' },
          3,
        ),
      ],
    ],
    [workflowRunStream(environment, workflowRunId), [recorded('WorkflowTriggered', workflowRunStream(environment, workflowRunId), {}, 2)]],
  ]);
  const reads: string[][] = [];
  const appends: StreamAppend[][] = [];
  const store = {
    async readStreams(ids: readonly string[]) {
      reads.push([...ids]);
      return new Map(ids.filter((id) => streams.has(id)).map((id) => [id, streams.get(id)!]));
    },
    async readStream(id: string) {
      reads.push([id]);
      return streams.get(id) ?? [];
    },
    // The log's revisions decide, as the real store's expected revisions do.
    async appendMany(batch: readonly StreamAppend[]) {
      appends.push([...batch]);
      for (const a of batch) {
        const actual = streams.get(a.streamId)?.at(-1)?.revision ?? -1;
        if (typeof a.expectedRevision === 'number' && a.expectedRevision !== actual)
          throw new WrongExpectedRevisionError(a.streamId, a.expectedRevision, actual);
      }
      return [];
    },
  } as unknown as EventStore;
  const deps = { store, lookups: {}, templates: {}, http: {}, settings: { fetchMaxAttempts: 1 } } as unknown as EngineDeps;
  return { executor: new RunExecutor(deps, []), reads, appends, streams };
}

describe('RunExecutor.executeMany: the stream reads of a batch', () => {
  it('reads the triggers of runs whose workflow run it was told with the runs, in one read', async () => {
    const { executor, reads } = executorOverALog();
    await executor.executeMany([{ environment, runId, workflowRunId }], 1);
    expect(reads).toEqual([[runStream(environment, runId), workflowRunStream(environment, workflowRunId)]]);
    // The trigger is remembered: a later batch of the same run reads only the run.
    await executor.executeMany([{ environment, runId, workflowRunId }], 1);
    expect(reads.slice(1)).toEqual([[runStream(environment, runId)]]);
  });

  it('without it, reads the runs, then their triggers', async () => {
    const { executor, reads } = executorOverALog();
    await executor.executeMany([{ environment, runId }], 1);
    expect(reads).toEqual([[runStream(environment, runId)], [workflowRunStream(environment, workflowRunId)]]);
  });
});

describe('RunExecutor.executeMany: runs given with their history', () => {
  const trigger = { workflow_run_id: workflowRunId, workflow: { key: 'welcome', steps: [] }, data: {}, recipients: [] };

  it('reads nothing for a run whose history and trigger it was given', async () => {
    const { executor, reads, appends, streams } = executorOverALog();
    executor.rememberTrigger(workflowRunId, trigger as never);
    await executor.executeMany([{ environment, runId, workflowRunId, history: streams.get(runStream(environment, runId))! }], 1);
    expect(reads).toEqual([]);
    expect(appends).toEqual([]); // the history says it completed
  });

  it('a history the log has moved past is refused by the append, and the run is read afresh', async () => {
    const { executor, reads, appends, streams } = executorOverALog();
    executor.rememberTrigger(workflowRunId, trigger as never);
    // Only the RunEnqueued: executed on it, the run would end now, after the revision it was enqueued at.
    const stale = streams.get(runStream(environment, runId))!.slice(0, 1);
    await executor.executeMany([{ environment, runId, workflowRunId, history: stale }], 1);
    expect(appends).toHaveLength(1);
    expect(appends[0].map((a) => [a.streamId, a.expectedRevision])).toEqual([[runStream(environment, runId), stale[0].revision]]);
    // Then read from the log, which says it completed: nothing more is appended.
    expect(reads).toEqual([[runStream(environment, runId)]]);
    expect(appends).toHaveLength(1);
  });
});

describe('RunExecutor.executeMany: runs that ended already', () => {
  it('loads nothing for a batch whose runs all ended (executed with their trigger, ADR 0258)', async () => {
    const { executor, reads, appends, streams } = executorOverALog();
    const prefetch = jest.fn(async () => true);
    const forBatch = jest.fn(() => ({ prefetch }));
    Object.assign((executor as unknown as { deps: EngineDeps }).deps.lookups, { forBatch });
    executor.rememberTrigger(workflowRunId, { workflow_run_id: workflowRunId, workflow: { key: 'welcome', steps: [] } } as never);
    await executor.executeMany([{ environment, runId, workflowRunId, history: streams.get(runStream(environment, runId))! }], 1);
    expect(prefetch).not.toHaveBeenCalled();
    expect(reads).toEqual([]);
    expect(appends).toEqual([]);
  });
});

describe('RunExecutor.planUnrecorded: the runs of a trigger not appended yet (ADR 0258)', () => {
  const newRunId = '7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a';
  const stream = runStream(environment, newRunId);
  const enqueued = {
    id: 'enq-1',
    type: 'RunEnqueued',
    data: enqueuedData(newRunId, { cancellation_key: 'k' }),
    metadata: { environment, schema_version: 1 },
  };
  const trigger = { workflow_run_id: workflowRunId, workflow: { key: 'welcome', steps: [{ type: 'channel', ref: 'feed' }] }, data: {} };
  const messageAppend = (expectedRevision: StreamAppend['expectedRevision']): StreamAppend => ({
    streamId: `message-${environment}-m1`,
    expectedRevision,
    events: [{ id: 'msg-1', type: 'MessageCreated', data: {}, metadata: { environment, schema_version: 1 } }],
  });
  const executorWith = (append: StreamAppend) => {
    const readStream = jest.fn(async () => []);
    const deps = {
      store: { readStream, readStreams: jest.fn(), appendMany: jest.fn() },
      lookups: {},
      templates: {},
      http: {},
      settings: { fetchMaxAttempts: 1 },
    } as unknown as EngineDeps;
    const handler = {
      type: 'channel',
      execute: jest.fn(async () => ({ flow: 'continue' as const, status: 'ok' as const, appends: [append] })),
    };
    const executor = new RunExecutor(deps, [handler]);
    const plan = () =>
      executor.planUnrecorded(
        environment,
        trigger as never,
        [{ streamId: stream, expectedRevision: 'any', events: [enqueued] }],
        {} as never,
        new Date('2026-11-26T12:00:00Z'),
      );
    return { plan, readStream, handler };
  };

  it("answers each run's RunEnqueued followed by its decisions, and the new streams it caused, reading nothing", async () => {
    const { plan, readStream, handler } = executorWith(messageAppend('no_stream'));
    const appends = await plan();
    expect(handler.execute).toHaveBeenCalledTimes(1);
    // No cancellation can follow a trigger not recorded yet: the cancellation stream is not read.
    expect(readStream).not.toHaveBeenCalled();
    expect(appends!.map((a) => [a.streamId, a.expectedRevision])).toEqual([
      [stream, 'any'],
      [`message-${environment}-m1`, 'no_stream'],
    ]);
    expect(appends![0].events.map((e) => e.type)).toEqual(['RunEnqueued', 'RunCompleted']);
    expect(appends![0].events[0]).toBe(enqueued);
  });

  it('declines a plan that appends to a stream that may exist already: the worker executes the run', async () => {
    const { plan } = executorWith(messageAppend(3));
    expect(await plan()).toBeUndefined();
  });
});
