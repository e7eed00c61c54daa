import { z } from 'zod';
import { defineRoute } from '../http/route';
import { RecipientId } from '../recipients/common';
import { RecipientRequest } from '../recipients/subscriptions';
import { SetTenantBody } from '../recipients/tenants';

export const WorkflowKeyPath = z.object({
  key: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[a-z0-9_-]+$/, 'must be a workflow key: lowercase letters, digits, _ and -'),
});

export const InlineTenantRequest = z.union([RecipientId, SetTenantBody.and(z.object({ id: RecipientId }))]);

export const TriggerWorkflowBody = z
  .object({
    actor: RecipientRequest.nullable().optional(),
    recipients: z.array(RecipientRequest).min(1, 'needs at least one recipient').max(1000, 'at most 1,000 recipients per trigger'),
    tenant: InlineTenantRequest.nullable().optional(),
    data: z.record(z.string(), z.unknown()).nullable().optional(),
    cancellation_key: z.string().min(1).max(255).nullable().optional(),
    settings: z.object({ sandbox_mode: z.boolean().optional(), skip_delay: z.boolean().optional() }).nullable().optional(),
  })
  .meta({ id: 'TriggerWorkflowRequest' });
export type TriggerWorkflowBodyT = z.infer<typeof TriggerWorkflowBody>;

export const TriggerWorkflowResponse = z.object({ workflow_run_id: z.uuid() }).meta({ id: 'TriggerWorkflowResponse' });

export const triggerWorkflowRoute = defineRoute({
  operationId: 'triggerWorkflow',
  method: 'POST',
  path: '/v1/workflows/{key}/trigger',
  summary: 'Trigger a workflow for up to 1,000 recipients; runs asynchronously',
  tags: ['Workflows'],
  auth: 'secret',
  rateTier: 5,
  params: WorkflowKeyPath,
  body: TriggerWorkflowBody,
  idempotent: true,
  response: TriggerWorkflowResponse,
});
