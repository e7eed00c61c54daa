import { RunEnqueuedData, WorkflowTriggeredData } from '@notify/domain';
import { EventStore, EventToAppend, RecordedEvent, StreamAppend } from '@notify/eventstore';
import { canEnqueueWithTrigger, Fanout, withEnqueuedRuns } from './fanout';
import type { EngineLookups } from './lookups';

/**
 * Runs appended with their trigger (schedules, broadcast pages; ADR 0235) are the runs the fan-out
 * would have appended, and the fan-out leaves a trigger that carries them.
 */
const ENV = 'test';
const WORKFLOW_RUN_ID = '5f8e2a52-3c4b-4d6e-8f90-1a2b3c4d5e6f';

const data = (over: Partial<WorkflowTriggeredData> = {}): WorkflowTriggeredData => ({
  workflow_run_id: WORKFLOW_RUN_ID,
  workflow: { key: 'launch', version: 'v1', categories: [], steps: [], conditions: null, settings: {}, trigger_frequency: 'every_trigger' },
  actor: null,
  recipients: [
    { type: 'user', id: 'u1' },
    { type: 'user', id: 'u2' },
    { type: 'user', id: 'u1' },
  ],
  tenant: 'acme',
  data: { plan: 'pro' },
  cancellation_key: null,
  settings: { sandbox_mode: false, skip_delay: false },
  trigger_source: { type: 'broadcast', broadcast_key: 'launch', broadcast_send_id: 's1', audience_key: 'beta' },
  triggered_at: '2030-01-01T00:00:00.000Z',
  ...over,
});

const toAppend = (d: WorkflowTriggeredData): EventToAppend<WorkflowTriggeredData> => ({
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  type: 'WorkflowTriggered',
  data: d,
  metadata: { environment: ENV, actor: 'broadcast-sender', schema_version: 1 },
});

const recorded = (event: EventToAppend<WorkflowTriggeredData>): RecordedEvent =>
  ({
    ...event,
    streamId: `workflow_run-${ENV}-${WORKFLOW_RUN_ID}`,
    revision: 0,
    position: '0'.repeat(31) + '7',
  }) as unknown as RecordedEvent;

/** A store that only records what the fan-out appends. */
function capturingStore(): { store: EventStore; appended: StreamAppend[] } {
  const appended: StreamAppend[] = [];
  const store = {
    atomicMultiStreamAppend: true,
    appendMany: async (appends: readonly StreamAppend[]) => {
      appended.push(...appends);
      return [];
    },
  } as unknown as EventStore;
  return { store, appended };
}

describe('runs appended with their trigger', () => {
  it('are the runs the fan-out appends for the same trigger: same streams, event ids and data, the trigger position left empty', async () => {
    const trigger = toAppend(data());
    const { trigger: marked, runs } = withEnqueuedRuns(ENV, trigger);
    expect(marked.data.runs_enqueued).toBe(true);
    expect(marked.id).toBe(trigger.id);

    const { store, appended } = capturingStore();
    expect(await new Fanout(store, {} as EngineLookups).fanOutMany([recorded(trigger)])).toBe(2);
    expect(runs.map((r) => r.streamId)).toEqual(appended.map((a) => a.streamId));
    expect(runs.map((r) => r.events[0].id)).toEqual(appended.map((a) => a.events[0].id));
    const strip = (a: StreamAppend) => ({ ...(a.events[0].data as RunEnqueuedData), trigger_position: null });
    expect(runs.map(strip)).toEqual(appended.map(strip));
    expect(runs.map((r) => (r.events[0].data as RunEnqueuedData).trigger_position)).toEqual(['', '']);
    expect(runs.map((r) => (r.events[0].data as RunEnqueuedData).recipient)).toEqual([
      { type: 'user', id: 'u1' },
      { type: 'user', id: 'u2' },
    ]);
    expect(runs[0].events[0].metadata).toMatchObject({
      causation_id: trigger.id,
      correlation_id: WORKFLOW_RUN_ID,
      actor: 'broadcast-sender',
    });
  });

  it('make the fan-out leave the trigger alone', async () => {
    const { trigger } = withEnqueuedRuns(ENV, toAppend(data()));
    const { store, appended } = capturingStore();
    const fanout = new Fanout(store, {} as EngineLookups);
    expect(await fanout.fanOutMany([recorded(trigger)])).toBe(0);
    expect(await fanout.fanOut(recorded(trigger))).toBe(0);
    expect(appended).toEqual([]);
  });

  it('only for every_trigger workflows and user recipients (the others need a read to decide)', () => {
    const once = data({ workflow: { ...data().workflow, trigger_frequency: 'once_per_recipient' } });
    const object = data({ recipients: [{ type: 'object', collection: 'teams', id: 't1' }] });
    expect(canEnqueueWithTrigger(data())).toBe(true);
    expect(canEnqueueWithTrigger(once)).toBe(false);
    expect(canEnqueueWithTrigger(object)).toBe(false);
    expect(() => withEnqueuedRuns(ENV, toAppend(once))).toThrow(/every_trigger/);
    expect(() => withEnqueuedRuns(ENV, toAppend(object))).toThrow(/every_trigger/);
  });
});

describe('a fan-out with a planner (ADR 0287)', () => {
  const plain = () => data({ trigger_source: { type: 'api' } } as Partial<WorkflowTriggeredData>);
  const decided = (r: StreamAppend): StreamAppend => ({
    ...r,
    events: [...r.events, { id: `${r.events[0].id}-end`, type: 'RunCompleted', data: {}, metadata: r.events[0].metadata }],
  });
  const message = (r: StreamAppend): StreamAppend => ({
    streamId: `message-${r.streamId}`,
    expectedRevision: 'no_stream',
    events: [{ id: `${r.events[0].id}-msg`, type: 'MessageCreated', data: {}, metadata: r.events[0].metadata }],
  });

  it('appends each run followed by the streams it created', async () => {
    const { store, appended } = capturingStore();
    const planRuns = jest.fn(async (_e: string, _t: WorkflowTriggeredData, runs: readonly StreamAppend[]) =>
      runs.flatMap((r) => [decided(r), message(r)]),
    );
    expect(await new Fanout(store, {} as EngineLookups, planRuns).fanOut(recorded(toAppend(plain())))).toBe(2);
    expect(appended.map((a) => [a.streamId.split('-')[0], a.events.length])).toEqual([
      ['run', 2],
      ['message', 1],
      ['run', 2],
      ['message', 1],
    ]);
  });

  it('appends the bare runs when the plan does not start with a run, and never plans a workflow with a cancellation key', async () => {
    const { store, appended } = capturingStore();
    const outOfOrder = async (_e: string, _t: WorkflowTriggeredData, runs: readonly StreamAppend[]) =>
      runs.flatMap((r) => [message(r), decided(r)]);
    expect(await new Fanout(store, {} as EngineLookups, outOfOrder).fanOut(recorded(toAppend(plain())))).toBe(2);
    expect(appended.map((a) => [a.streamId.split('-')[0], a.events.map((e) => e.type)])).toEqual([
      ['run', ['RunEnqueued']],
      ['run', ['RunEnqueued']],
    ]);

    const planRuns = jest.fn();
    const cancellable = data({ trigger_source: { type: 'api' }, cancellation_key: 'k1' } as Partial<WorkflowTriggeredData>);
    expect(await new Fanout(capturingStore().store, {} as EngineLookups, planRuns).fanOut(recorded(toAppend(cancellable)))).toBe(2);
    expect(planRuns).not.toHaveBeenCalled();
  });
});
