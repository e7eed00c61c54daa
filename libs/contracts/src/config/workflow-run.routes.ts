import { z } from 'zod';
import { defineRoute } from '../http/route';
import { TriggerWorkflowBody, TriggerWorkflowResponse } from '../runs/trigger.routes';
import { EnvironmentQuery, ResourceKey } from './mgmt';

/** A test run takes what a trigger takes, except its settings. */
export const RunWorkflowBody = TriggerWorkflowBody.omit({ settings: true }).meta({ id: 'RunWorkflowRequest' });
export type RunWorkflowBodyT = z.infer<typeof RunWorkflowBody>;

export const runWorkflowRoute = defineRoute({
  operationId: 'runWorkflow',
  method: 'PUT',
  path: '/v1/workflows/{workflow_key}/run',
  summary:
    'Test-run the workflow the environment serves (active or not) for the given recipients; runs record trigger source `test` (shown as `rehearsal`)',
  tags: ['Workflows'],
  auth: 'service',
  rateTier: 3,
  params: z.object({ workflow_key: ResourceKey }),
  query: EnvironmentQuery,
  body: RunWorkflowBody,
  response: TriggerWorkflowResponse.meta({ id: 'RunWorkflowResponse' }),
});
