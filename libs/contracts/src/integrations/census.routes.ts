import { z } from 'zod';
import { defineRoute } from '../http/route';

/** A JSON-RPC 2.0 request as Census sends it to a custom destination. */
export const CensusRpcRequest = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.string().min(1).max(255),
    method: z.string().min(1).max(64),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: 'CensusRpcRequest' });

export const CensusRpcResponse = z
  .object({ jsonrpc: z.literal('2.0'), id: z.string(), result: z.record(z.string(), z.unknown()) })
  .meta({ id: 'CensusRpcResponse' });

export const processCensusRpcRoute = defineRoute({
  operationId: 'processCensusRpcRequest',
  method: 'POST',
  path: '/v1/integrations/census/custom-destination',
  summary: 'Census custom destination: users are upserted (identify), workflow objects are inserted (trigger)',
  tags: ['Integrations'],
  auth: 'secret',
  rateTier: 3,
  body: CensusRpcRequest,
  response: CensusRpcResponse,
});
