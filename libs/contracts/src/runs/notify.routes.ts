import { z } from 'zod';
import { defineRoute } from '../http/route';
import { CancelWorkflowBody } from './cancel.routes';
import { TriggerWorkflowBody, WorkflowKeyPath } from './trigger.routes';

/**
 * The older `/v1/notify` forms of trigger and cancel: the workflow key travels in the body as
 * `name`, and a trigger answers `result_id` (the workflow run id). Same behaviour as
 * `/v1/workflows/{key}/trigger` and `/cancel`.
 */
export const NotifyBody = TriggerWorkflowBody.extend({ name: WorkflowKeyPath.shape.key }).meta({ id: 'NotifyRequest' });
export const NotifyCancelBody = CancelWorkflowBody.extend({ name: WorkflowKeyPath.shape.key }).meta({ id: 'NotifyCancelRequest' });

export const notifyRoute = defineRoute({
  operationId: 'notify',
  method: 'POST',
  path: '/v1/notify',
  summary: 'Trigger the workflow named in the body (older form of the workflow trigger)',
  tags: ['Workflows'],
  auth: 'secret',
  rateTier: 3,
  body: NotifyBody,
  idempotent: true,
  response: z.object({ result_id: z.uuid() }).meta({ id: 'NotifyResponse' }),
});

export const notifyCancelRoute = defineRoute({
  operationId: 'notifyCancel',
  method: 'POST',
  path: '/v1/notify/cancel',
  summary: 'Cancel the runs of the workflow named in the body (older form of the workflow cancel)',
  tags: ['Workflows'],
  auth: 'secret',
  rateTier: 3,
  body: NotifyCancelBody,
  idempotent: true,
  response: null,
});
