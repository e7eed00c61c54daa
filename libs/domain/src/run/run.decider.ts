import { assertNever, Decider } from '../shared/decider';
import type { RunEnqueuedData, RunEvent, RunResumedData } from './run.events';

type RunPausedData = Extract<RunEvent, { type: 'RunPaused' }>['data'];
type StepCompletedData = Extract<RunEvent, { type: 'StepCompleted' }>['data'];
/** What a decision was made from (conditions with their values, preference layers); recorded on the event that records it (ADR 0219). */
export type DecisionInputsData = NonNullable<StepCompletedData['inputs']>;
import type { StepPath } from './workflow-cursor';

export type RunStatus = 'none' | 'queued' | 'processing' | 'paused' | 'completed' | 'cancelled';

export interface RunState {
  status: RunStatus;
  run?: RunEnqueuedData;
  /** Trigger data as updated by update_data and fetch steps. */
  data: Record<string, unknown>;
  /** The next step to execute; null before the first and after the last. */
  path: StepPath | null;
  pause?: { stepRef: string; reason: string; timerId: string | null; waitingFor: Record<string, unknown> | null };
  /** Timers that fired, by id. */
  fired: string[];
  /** A batch flush handed to the step the run resumed on. */
  resumedWith?: RunResumedData;
  /** The batch the run carries after a batch step: its activities and actors, for later steps. */
  batch?: NonNullable<RunResumedData['batch']>;
  errorCount: number;
  /** How many times each step ref ran (fetch retries count attempts). */
  attempts: Record<string, number>;
  /** The run paused at some step: later steps are due when it continued, not when it was triggered. */
  pausedOnce?: true;
}

export type RunCommand =
  | { type: 'Enqueue'; run: RunEnqueuedData }
  | { type: 'Cancel'; reason: string; now: string }
  | { type: 'FireTimer'; timerId: string; now: string }
  | { type: 'Resume'; cause: RunResumedData['cause']; batch: RunResumedData['batch']; now: string }
  /** The workflow's own conditions do not hold: the run ends before its first step. */
  | { type: 'Halt'; reason: string; now: string; inputs?: DecisionInputsData | null }
  /** The cursor is past the last step: the run ends. */
  | { type: 'End'; now: string }
  /** What the step at the cursor decided (its handler looked everything up): recorded as the run's progress. */
  | { type: 'ApplyStep'; step: { ref: string; type: string }; resumed: boolean; attempt: number; decision: StepDecision; now: string };

/**
 * A step's decision, as its handler made it. `continue` carries where the cursor goes next (the
 * workflow's shape is the engine's to walk); `pause` carries the timer id the engine derived.
 */
export type StepDecision =
  | {
      flow: 'continue';
      status: StepStatus;
      reason: string | null;
      output: Record<string, unknown> | null;
      data: Record<string, unknown> | null;
      next: { path: StepPath | null; terminated: boolean };
      inputs?: DecisionInputsData | null;
    }
  | {
      flow: 'pause';
      reason: RunPausedData['reason'];
      timerId: string | null;
      resumeAt: string | null;
      waitingFor: Record<string, unknown> | null;
      /** What set the pause (its timer's due time, the window) and the step's inputs so far (ADR 0239). */
      inputs?: DecisionInputsData | null;
    }
  | { flow: 'halt'; status: StepStatus; reason: string; output: Record<string, unknown> | null; inputs?: DecisionInputsData | null };

type StepStatus = StepCompletedData['status'];

const ACTIVE: RunStatus[] = ['queued', 'processing', 'paused'];

export const isActive = (state: RunState) => ACTIVE.includes(state.status);

export const runDecider: Decider<RunState, RunCommand, RunEvent> = {
  initialState: () => ({ status: 'none', data: {}, path: null, fired: [], errorCount: 0, attempts: {} }),

  evolve(state, event) {
    switch (event.type) {
      case 'RunEnqueued':
        return { ...state, status: 'queued', run: event.data, data: event.data.data, path: [0] };
      case 'StepStarted':
        return { ...state, status: 'processing' };
      case 'StepCompleted':
        return stepCompleted(state, event.data);
      case 'RunPaused': {
        const pause = {
          stepRef: event.data.step_ref,
          reason: event.data.reason,
          timerId: event.data.timer_id,
          waitingFor: event.data.waiting_for,
        };
        // A fetch that will be tried again counts as an attempt of its step.
        if (event.data.reason !== 'fetch_retry') return { ...state, status: 'paused', pause, pausedOnce: true };
        return {
          ...state,
          pausedOnce: true,
          status: 'paused',
          pause,
          attempts: { ...state.attempts, [event.data.step_ref]: (state.attempts[event.data.step_ref] ?? 0) + 1 },
        };
      }
      case 'TimerScheduled':
        return state;
      case 'TimerFired':
        return { ...state, fired: [...state.fired, event.data.timer_id] };
      case 'RunResumed':
        return { ...state, status: 'processing', pause: undefined, resumedWith: event.data, batch: event.data.batch ?? state.batch };
      case 'RunDataUpdated':
        return { ...state, data: { ...state.data, ...event.data.data } };
      case 'RunCancelled':
        return { ...state, status: 'cancelled', pause: undefined };
      case 'RunCompleted': {
        // The run's last step, recorded in the same event (ADR 0233), completes first.
        const { step } = event.data;
        const before = step ? stepCompleted(state, { run_id: event.data.run_id, ...step }) : state;
        return { ...before, status: 'completed', path: null, pause: undefined };
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'Enqueue':
        return state.status === 'none' ? [{ type: 'RunEnqueued', data: command.run }] : [];
      case 'Cancel':
        if (!isActive(state)) return [];
        return [
          { type: 'RunCancelled', data: { run_id: state.run!.run_id, reason: command.reason, at: command.now, ...neverPaused(state) } },
        ];
      case 'FireTimer':
        // A timer of a run that ended, or one already fired, changes nothing.
        if (!isActive(state) || state.fired.includes(command.timerId)) return [];
        return [{ type: 'TimerFired', data: { timer_id: command.timerId, fired_at: command.now } }];
      case 'Resume':
        if (state.status !== 'paused') return [];
        return [
          {
            type: 'RunResumed',
            data: {
              run_id: state.run!.run_id,
              step_ref: state.pause!.stepRef,
              cause: command.cause,
              batch: command.batch,
              at: command.now,
            },
          },
        ];
      case 'Halt':
        if (!isActive(state)) return [];
        return [
          {
            type: 'RunCompleted',
            data: {
              run_id: state.run!.run_id,
              outcome: 'halted',
              reason: command.reason,
              at: command.now,
              ...(command.inputs ? { inputs: command.inputs } : {}),
              ...neverPaused(state),
            },
          },
        ];
      case 'End':
        if (!isActive(state)) return [];
        return [
          {
            type: 'RunCompleted',
            data: { run_id: state.run!.run_id, outcome: 'ended', reason: null, at: command.now, ...neverPaused(state) },
          },
        ];
      case 'ApplyStep':
        return canContinue(state) ? applyStep(state, command) : [];
      default:
        return assertNever(command);
    }
  },
};

function stepCompleted(state: RunState, data: StepCompletedData): RunState {
  return {
    ...state,
    batch: (data.output?.batch as RunState['batch'] | undefined) ?? state.batch,
    status: 'processing',
    path: data.next_path,
    pause: undefined,
    resumedWith: undefined,
    errorCount: state.errorCount + (data.status === 'error' ? 1 : 0),
    attempts: { ...state.attempts, [data.step_ref]: (state.attempts[data.step_ref] ?? 0) + 1 },
  };
}

/**
 * The run's decisions, pure: what `command` records given `state` (an empty list when it changes
 * nothing). The engine reads the run, its trigger and what the step's handler looked up, then
 * appends what this returns; nothing between the reads and the append does I/O of its own.
 */
export const decideRun = (state: RunState, command: RunCommand): RunEvent[] => runDecider.decide(command, state);

/** What a run's end records when the run never paused: nothing of it can be pending (ADR 0257). */
const neverPaused = (state: RunState): { never_paused?: true } => (state.pausedOnce ? {} : { never_paused: true });

function applyStep(state: RunState, command: Extract<RunCommand, { type: 'ApplyStep' }>): RunEvent[] {
  const runId = state.run!.run_id;
  const { step, decision, now: at } = command;
  if (decision.flow === 'pause') {
    const events: RunEvent[] = [];
    // A step resumed and paused again (a fetch retried) started once.
    if (!command.resumed) events.push({ type: 'StepStarted', data: { run_id: runId, step_ref: step.ref, step_type: step.type, at } });
    if (decision.timerId && decision.resumeAt)
      events.push({ type: 'TimerScheduled', data: { timer_id: decision.timerId, fire_at: decision.resumeAt, purpose: decision.reason } });
    events.push({
      type: 'RunPaused',
      data: {
        run_id: runId,
        step_ref: step.ref,
        reason: decision.reason,
        timer_id: decision.timerId && decision.resumeAt ? decision.timerId : null,
        resume_at: decision.resumeAt,
        waiting_for: decision.waitingFor,
        at,
        ...(decision.inputs ? { inputs: decision.inputs } : {}),
      },
    });
    return events;
  }
  const base = { step_ref: step.ref, step_type: step.type, at, attempt: command.attempt + 1 };
  // Absent rather than null when there is nothing to record: the event keeps its earlier shape.
  const inputs = decision.inputs ? { inputs: decision.inputs } : {};
  // A step that ends the run is recorded in its RunCompleted (ADR 0233): one event, not two.
  if (decision.flow === 'halt')
    return [
      {
        type: 'RunCompleted',
        data: {
          run_id: runId,
          outcome: 'halted',
          reason: decision.reason,
          at,
          step: { ...base, status: decision.status, reason: decision.reason, output: decision.output, next_path: null, ...inputs },
          ...neverPaused(state),
        },
      },
    ];
  const events: RunEvent[] = [];
  if (decision.data && Object.keys(decision.data).length)
    events.push({ type: 'RunDataUpdated', data: { run_id: runId, step_ref: step.ref, data: decision.data, at } });
  const next = decision.next;
  const { status, reason, output } = decision;
  const completion = { ...base, status, reason, output, next_path: next.path, ...inputs };
  if (next.path) events.push({ type: 'StepCompleted', data: { run_id: runId, ...completion } });
  else
    events.push({
      type: 'RunCompleted',
      data: {
        run_id: runId,
        outcome: next.terminated ? 'halted' : 'ended',
        reason: next.terminated ? 'branch_terminated' : null,
        at,
        step: completion,
        ...neverPaused(state),
      },
    });
  return events;
}

/** Whether the paused run may continue: its timer fired, or something resumed it. */
export function canContinue(state: RunState): boolean {
  if (state.status === 'queued' || state.status === 'processing') return true;
  if (state.status !== 'paused' || !state.pause) return false;
  return state.pause.timerId !== null && state.fired.includes(state.pause.timerId);
}
