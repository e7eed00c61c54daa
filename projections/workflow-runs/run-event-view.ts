import type { RunStatusT } from '@notify/contracts';

/** One entry of a run's history as GET /v1/workflow_recipient_runs/{id} shows it. */
export interface RunEventView {
  event: string;
  status: 'ok' | 'error';
  step_ref: string | null;
  step_type: string | null;
  attempt: number | null;
  data: Record<string, unknown> | null;
}

type Data = Record<string, unknown>;

/** Step outputs can carry a whole batch (every activity): the history keeps its size only. */
function summarize(output: Data | null | undefined): Data {
  if (!output) return {};
  const { batch, ...rest } = output;
  if (batch && typeof batch === 'object') {
    const b = batch as { total_activities?: number; total_actors?: number };
    return { ...rest, batch: { total_activities: b.total_activities ?? null, total_actors: b.total_actors ?? null } };
  }
  return rest;
}

const step = (d: Data) => ({
  step_ref: (d.step_ref as string | undefined) ?? null,
  step_type: (d.step_type as string | undefined) ?? null,
});

/**
 * How one recorded run event reads in the run's history: every step outcome (completed, skipped
 * with its reason, failed with its error and attempt), a channel step that created a message as
 * `message_enqueued` with its channel type and message id, pauses, resumptions, cancellation and
 * completion. null for events that are not part of the history.
 */
export function runEventView(type: string, data: Data): RunEventView | null {
  const none = { step_ref: null, step_type: null, attempt: null };
  switch (type) {
    case 'RunEnqueued':
      return {
        event: 'run_enqueued',
        status: 'ok',
        ...none,
        data: { trigger_source: data.trigger_source, subscribed_to: data.subscribed_to ?? null },
      };
    case 'StepStarted':
      return { event: 'step_started', status: 'ok', ...step(data), attempt: null, data: null };
    case 'StepCompleted': {
      const output = data.output as Data | null;
      const attempt = (data.attempt as number | null) ?? null;
      const reason = (data.reason as string | null) ?? null;
      if (data.status === 'ok' && output && typeof output.message_id === 'string') {
        return {
          event: 'message_enqueued',
          status: 'ok',
          ...step(data),
          attempt,
          data: { channel_type: output.channel_type ?? null, message_id: output.message_id, channel_id: output.channel_id ?? null },
        };
      }
      const event = data.status === 'skipped' ? 'step_skipped' : data.status === 'error' ? 'step_failed' : 'step_completed';
      return {
        event,
        status: data.status === 'error' ? 'error' : 'ok',
        ...step(data),
        attempt,
        data: { ...summarize(output), ...(reason ? { reason } : {}) },
      };
    }
    case 'RunPaused':
      return {
        event: 'run_paused',
        status: 'ok',
        step_ref: data.step_ref as string,
        step_type: null,
        attempt: null,
        data: { reason: data.reason, resume_at: data.resume_at ?? null, waiting_for: data.waiting_for ?? null },
      };
    case 'TimerFired':
      return { event: 'timer_fired', status: 'ok', ...none, data: { timer_id: data.timer_id } };
    case 'RunResumed':
      return {
        event: 'run_resumed',
        status: 'ok',
        step_ref: data.step_ref as string,
        step_type: null,
        attempt: null,
        data: { cause: data.cause },
      };
    case 'RunDataUpdated':
      return {
        event: 'run_data_updated',
        status: 'ok',
        step_ref: data.step_ref as string,
        step_type: null,
        attempt: null,
        data: { keys: Object.keys((data.data as Data | null) ?? {}) },
      };
    case 'RunCancelled':
      return { event: 'run_cancelled', status: 'ok', ...none, data: { reason: data.reason } };
    case 'RunCompleted':
      return data.outcome === 'halted'
        ? { event: 'run_halted', status: 'ok', ...none, data: { reason: data.reason ?? null } }
        : { event: 'run_completed', status: 'ok', ...none, data: null };
    default:
      return null;
  }
}

/** The run's status after the event (as the run decider's evolve has it); null when unchanged. */
export function runStatusAfter(type: string): RunStatusT | null {
  switch (type) {
    case 'RunEnqueued':
      return 'queued';
    case 'StepStarted':
    case 'StepCompleted':
    case 'RunResumed':
      return 'processing';
    case 'RunPaused':
      return 'paused';
    case 'RunCancelled':
      return 'cancelled';
    case 'RunCompleted':
      return 'completed';
    default:
      return null;
  }
}
