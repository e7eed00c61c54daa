import { z } from 'zod';
import { RecipientReference } from './recipient';

export const WORKFLOW_RUN_EVENT_ENVELOPE_V1 = 'notify.workflow-run-event.v1';

export const WORKFLOW_RUN_EVENT_TYPES = [
  'workflow_recipient_run.started',
  'workflow_recipient_run.completed',
  'workflow_recipient_run.error',
] as const;
export type WorkflowRunEventType = (typeof WORKFLOW_RUN_EVENT_TYPES)[number];

const timestamp = z.iso.datetime({ offset: true });

/** One recipient's run of a workflow (Knock's WorkflowRecipientRun), at the moment of the event. */
export const WorkflowRecipientRunV1 = z
  .object({
    __typename: z.literal('WorkflowRecipientRun'),
    id: z.string(),
    workflow_run_id: z.string(),
    workflow: z.string(),
    status: z.enum(['queued', 'processing', 'paused', 'completed', 'cancelled']),
    recipient: RecipientReference,
    actor: RecipientReference.nullable().optional(),
    tenant: z.string().nullable().optional(),
    error_count: z.number().int().min(0).optional(),
    trigger_source: z.object({ type: z.string(), cancellation_key: z.string().nullable().optional() }).loose().optional(),
    inserted_at: timestamp,
    updated_at: timestamp,
  })
  .loose();

export type WorkflowRecipientRunV1 = z.infer<typeof WorkflowRecipientRunV1>;

/**
 * Value of every record on `<prefix>workflow-run-events.v1`. Key:
 * recipientKey(environment, data.recipient), the same key as the recipient's message events.
 */
export const WorkflowRunEventEnvelopeV1 = z
  .object({
    __typename: z.literal('Event'),
    type: z.enum(WORKFLOW_RUN_EVENT_TYPES),
    created_at: timestamp,
    environment: z.string(),
    data: WorkflowRecipientRunV1,
    event_data: z.record(z.string(), z.unknown()).nullable().describe('For .error: {step_ref, step_type, error}'),
  })
  .loose()
  .meta({
    title: 'WorkflowRunEventEnvelopeV1',
    description: 'A workflow recipient run event (topic <prefix>workflow-run-events.v1, key = recipient)',
  });

export type WorkflowRunEventEnvelopeV1 = z.infer<typeof WorkflowRunEventEnvelopeV1>;
