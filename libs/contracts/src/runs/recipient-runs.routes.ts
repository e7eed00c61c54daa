import { z } from 'zod';
import { Id } from '../http/ids';
import { defineRoute } from '../http/route';
import { arrayParam, PageInfo, PageQuery } from '../http/pagination';
import { IsoDateTime } from '../recipients/common';
import { RecipientReference } from '../recipients/refs';

export const RUN_STATUSES = ['queued', 'processing', 'paused', 'completed', 'cancelled'] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatusT = z.infer<typeof RunStatus>;

/** How a run was triggered, in the API's vocabulary (see ADR 0091 for the mapping from the log's). */
export const WorkflowRecipientRunTriggerSource = z
  .object({
    type: z.enum(['api', 'audience', 'schedule', 'broadcast', 'workflow_step', 'integration', 'rehearsal']),
    cancellation_key: z.string().nullable().optional(),
    audience_key: z.string().nullable().optional(),
    schedule_id: z.string().nullable().optional(),
    broadcast_key: z.string().nullable().optional(),
  })
  .meta({ id: 'WorkflowRecipientRunTriggerSource' });

export const WorkflowRecipientRun = z
  .object({
    __typename: z.literal('WorkflowRecipientRun'),
    id: z.uuid(),
    workflow_run_id: z.uuid(),
    workflow: z.string(),
    recipient: RecipientReference,
    actor: RecipientReference.nullable(),
    tenant: z.string().nullable(),
    status: RunStatus,
    error_count: z.number().int(),
    trigger_source: WorkflowRecipientRunTriggerSource,
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WorkflowRecipientRun' });
export type WorkflowRecipientRunT = z.infer<typeof WorkflowRecipientRun>;

export const WorkflowRecipientRunEvent = z
  .object({
    __typename: z.literal('WorkflowRecipientRunEvent'),
    id: z.string(),
    /**
     * run_enqueued, step_started, step_completed, step_skipped, step_failed, message_enqueued,
     * run_paused, timer_fired, run_resumed, run_data_updated, run_cancelled, run_completed, run_halted.
     */
    event: z.string(),
    status: z.enum(['ok', 'error']),
    step_ref: z.string().nullable(),
    step_type: z.string().nullable(),
    /** The step's attempt; absent on events that are not one (run_enqueued, step_started, run_paused, ...). */
    attempt: z.number().int().optional(),
    data: z.record(z.string(), z.unknown()).nullable(),
    inserted_at: z.string(),
  })
  .meta({ id: 'WorkflowRecipientRunEvent' });
export type WorkflowRecipientRunEventT = z.infer<typeof WorkflowRecipientRunEvent>;

export const WorkflowRecipientRunDetail = WorkflowRecipientRun.extend({ events: z.array(WorkflowRecipientRunEvent) }).meta({
  id: 'WorkflowRecipientRunDetail',
});
export type WorkflowRecipientRunDetailT = z.infer<typeof WorkflowRecipientRunDetail>;

export const ListWorkflowRecipientRunsResponse = z
  .object({ items: z.array(WorkflowRecipientRun), page_info: PageInfo })
  .meta({ id: 'ListWorkflowRecipientRunsResponse' });

/** `true`/`false` as query strings (z.coerce.boolean would read "false" as true). */
const QueryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** `inserted_at.gte=...` (and gt, lt, lte) arrive as one nested object. */
const RunInsertedAtRange = z.strictObject({
  gt: IsoDateTime.optional(),
  gte: IsoDateTime.optional(),
  lt: IsoDateTime.optional(),
  lte: IsoDateTime.optional(),
});

export const ListWorkflowRecipientRunsQuery = PageQuery.extend({
  workflow: z.string().min(1).max(255).optional(),
  status: arrayParam(RunStatus).optional(),
  tenant: Id.optional(),
  has_errors: QueryBoolean.optional(),
  recipient: RecipientReference.optional(),
  workflow_run_id: z.uuid().optional(),
  /** Runs created at or after this time. */
  starting_at: IsoDateTime.optional(),
  /** Runs created at or before this time. */
  ending_at: IsoDateTime.optional(),
  inserted_at: RunInsertedAtRange.optional(),
});
export type ListWorkflowRecipientRunsQueryT = z.infer<typeof ListWorkflowRecipientRunsQuery>;

export const listWorkflowRecipientRunsRoute = defineRoute({
  operationId: 'listWorkflowRecipientRuns',
  method: 'GET',
  path: '/v1/workflow_recipient_runs',
  summary: 'List workflow recipient runs, newest first, by workflow, status, recipient, tenant, trigger, errors and time',
  tags: ['Workflow recipient runs'],
  auth: 'secret',
  rateTier: 2,
  query: ListWorkflowRecipientRunsQuery,
  response: ListWorkflowRecipientRunsResponse,
});

export const getWorkflowRecipientRunRoute = defineRoute({
  operationId: 'getWorkflowRecipientRun',
  method: 'GET',
  path: '/v1/workflow_recipient_runs/{id}',
  summary: 'A workflow recipient run with its events (step outcomes, messages enqueued, pauses, cancellation, completion)',
  tags: ['Workflow recipient runs'],
  auth: 'secret',
  rateTier: 2,
  /** Any string: an id that is not a run's answers 404 like an unknown one. */
  params: z.object({ id: Id }),
  response: WorkflowRecipientRunDetail,
});
