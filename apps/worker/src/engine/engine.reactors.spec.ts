import { RunExecutor, RunToExecute } from '@notify/application';
import { AppConfig } from '@notify/config';
import { RecordedEvent } from '@notify/eventstore';
import { RunExecutorReactor } from './engine.reactors';

const ENV = 'development';
const runId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const runStreamOf = (n: number) => `run-${ENV}-${runId(n)}`;
const workflowRunStreamOf = (n: number) => `workflow_run-${ENV}-${runId(1000 + n)}`;

let position = 0;
function event(streamId: string, type: string, revision: number, data: Record<string, unknown> = {}): RecordedEvent {
  position += 1;
  return {
    id: `e${position}`,
    streamId,
    type,
    revision,
    data,
    metadata: { environment: ENV },
    globalPosition: BigInt(position),
    position: String(position).padStart(20, '0'),
    createdAt: new Date(0),
  } as RecordedEvent;
}

function reactor(): { reactor: RunExecutorReactor; batches: RunToExecute[][]; remembered: string[] } {
  const batches: RunToExecute[][] = [];
  const remembered: string[] = [];
  const executor = {
    executeMany: async (runs: readonly RunToExecute[]) => {
      batches.push([...runs]);
    },
    rememberTrigger: (workflowRunId: string) => remembered.push(workflowRunId),
  } as unknown as RunExecutor;
  return { reactor: new RunExecutorReactor(executor, { ENGINE_CONCURRENCY: 4 } as AppConfig), batches, remembered };
}

describe('RunExecutorReactor', () => {
  it('reads the events that wake or settle a run and the triggers, not the steps in between', () => {
    const { reactor: r } = reactor();
    expect(r.filter.eventTypes).toEqual(expect.arrayContaining(['RunEnqueued', 'TimerFired', 'RunResumed', 'RunPaused', 'RunCompleted']));
    expect(r.filter.eventTypes).not.toContain('StepStarted');
    expect(r.filter.eventTypes).not.toContain('StepCompleted');
  });

  it('executes an enqueued run on the RunEnqueued it holds, naming its workflow run', async () => {
    const { reactor: r, batches } = reactor();
    const enqueued = event(runStreamOf(1), 'RunEnqueued', 0, { workflow_run_id: runId(1001) });
    await r.handle([enqueued]);
    expect(batches).toEqual([[{ environment: ENV, runId: runId(1), workflowRunId: runId(1001), history: [enqueued] }]]);
  });

  it('leaves a run whose settling event follows its wake in the batch (executed with its trigger)', async () => {
    const { reactor: r, batches, remembered } = reactor();
    await r.handle([
      event(workflowRunStreamOf(1), 'WorkflowTriggered', 0),
      event(runStreamOf(1), 'RunEnqueued', 0, { workflow_run_id: runId(1001) }),
      event(runStreamOf(1), 'RunCompleted', 2),
      event(runStreamOf(2), 'RunEnqueued', 0, { workflow_run_id: runId(1001) }),
      event(runStreamOf(2), 'RunPaused', 2),
      event(runStreamOf(3), 'RunEnqueued', 0, { workflow_run_id: runId(1001) }),
    ]);
    expect(remembered).toEqual([runId(1001)]);
    expect(batches).toHaveLength(1);
    expect(batches[0].map((run) => run.runId)).toEqual([runId(3)]);
  });

  it('executes a run woken after it settled, reading its history afresh', async () => {
    const { reactor: r, batches } = reactor();
    await r.handle([
      event(runStreamOf(1), 'RunEnqueued', 0, { workflow_run_id: runId(1001) }),
      event(runStreamOf(1), 'RunPaused', 2),
      event(runStreamOf(1), 'TimerFired', 4),
      event(runStreamOf(2), 'RunResumed', 7),
    ]);
    expect(batches).toEqual([
      [
        { environment: ENV, runId: runId(1), workflowRunId: undefined, history: undefined },
        { environment: ENV, runId: runId(2), workflowRunId: undefined, history: undefined },
      ],
    ]);
  });

  it('does not hold a history for a run woken twice in the batch (the events between are not in it)', async () => {
    const { reactor: r, batches } = reactor();
    await r.handle([event(runStreamOf(1), 'RunEnqueued', 0, { workflow_run_id: runId(1001) }), event(runStreamOf(1), 'RunResumed', 3)]);
    expect(batches).toEqual([[{ environment: ENV, runId: runId(1), workflowRunId: runId(1001), history: undefined }]]);
  });
});
