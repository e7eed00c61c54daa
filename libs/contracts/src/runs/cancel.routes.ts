import { z } from 'zod';
import { defineRoute } from '../http/route';
import { RecipientReference } from '../recipients/refs';
import { WorkflowKeyPath } from './trigger.routes';

export const CancelWorkflowBody = z
  .object({
    cancellation_key: z.string().min(1).max(255),
    /** Only these recipients' runs (an object also covers the runs it fanned out to its subscribers); all when absent. */
    recipients: z.array(RecipientReference).min(1).max(1000).nullable().optional(),
  })
  .meta({ id: 'CancelWorkflowRequest' });
export type CancelWorkflowBodyT = z.infer<typeof CancelWorkflowBody>;

export const cancelWorkflowRoute = defineRoute({
  operationId: 'cancelWorkflow',
  method: 'POST',
  path: '/v1/workflows/{key}/cancel',
  summary:
    'Cancel the queued, processing and paused runs of a workflow triggered with this cancellation key, for the given recipients or all; runs still being fanned out when the request arrives are cancelled too. Accepts Idempotency-Key.',
  tags: ['Workflows'],
  auth: 'secret',
  rateTier: 5,
  params: WorkflowKeyPath,
  body: CancelWorkflowBody,
  idempotent: true,
  response: null,
});
