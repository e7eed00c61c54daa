import type { RunEnqueuedData } from '@notify/domain';
import type { RecordedEvent } from '@notify/eventstore';
import { WorkflowRecipientRunV1, WorkflowRunEventType } from '../envelopes/workflow-run-event.v1';
import { recipientReference } from './message-view';

type Data = Record<string, unknown>;
type Status = WorkflowRecipientRunV1['status'];

const STATUS_AFTER: Record<string, Status> = {
  RunEnqueued: 'queued',
  StepStarted: 'processing',
  StepCompleted: 'processing',
  RunResumed: 'processing',
  RunPaused: 'paused',
  RunCancelled: 'cancelled',
  RunCompleted: 'completed',
};

/** Trigger sources as the API names them (GET /v1/workflow_recipient_runs). */
const SOURCE_TYPES: Record<string, string> = {
  api: 'api',
  bulk: 'api',
  workflow: 'workflow_step',
  schedule: 'schedule',
  test: 'rehearsal',
};

/**
 * The recipient run (Knock's WorkflowRecipientRun) right after the last of `history`, folded
 * from its stream alone. undefined when the stream does not start with RunEnqueued.
 */
export function runView(history: readonly RecordedEvent[]): WorkflowRecipientRunV1 | undefined {
  const first = history[0];
  if (!first || first.type !== 'RunEnqueued') return undefined;
  const run = first.data as RunEnqueuedData;
  let status: Status = 'queued';
  let errors = 0;
  for (const e of history) {
    // Once ended, a run keeps its final status (as the read model does).
    if (status !== 'completed' && status !== 'cancelled') status = STATUS_AFTER[e.type] ?? status;
    if (e.type === 'StepCompleted' && (e.data as Data).status === 'error') errors++;
  }
  return {
    __typename: 'WorkflowRecipientRun',
    id: run.run_id,
    workflow_run_id: run.workflow_run_id,
    workflow: run.workflow_key,
    status,
    recipient: recipientReference(run.recipient),
    actor: run.actor ? recipientReference(run.actor) : null,
    tenant: run.tenant,
    error_count: errors,
    trigger_source: { type: SOURCE_TYPES[run.trigger_source.type] ?? 'api', cancellation_key: run.cancellation_key },
    inserted_at: first.createdAt.toISOString(),
    updated_at: history[history.length - 1].createdAt.toISOString(),
  };
}

/** The run event type a logged run event is reported as, with its details; undefined when it is not reported. */
export function runEventOf(event: RecordedEvent): { type: WorkflowRunEventType; eventData: Data | null } | undefined {
  const d = event.data as Data;
  switch (event.type) {
    case 'RunEnqueued':
      return { type: 'workflow_recipient_run.started', eventData: null };
    case 'RunCompleted':
      return { type: 'workflow_recipient_run.completed', eventData: { outcome: d.outcome, reason: d.reason ?? null } };
    case 'StepCompleted':
      return d.status === 'error'
        ? { type: 'workflow_recipient_run.error', eventData: { step_ref: d.step_ref, step_type: d.step_type, error: d.reason ?? null } }
        : undefined;
    default:
      return undefined;
  }
}
