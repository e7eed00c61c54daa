import { z } from 'zod';
import { defineRoute } from '../http/route';

/** A JSON-RPC 2.0 request as Hightouch sends it to an embedded destination (named params). */
export const HightouchRpcRequest = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string().min(1).max(255), z.number().int()]),
    method: z.string().min(1).max(64),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: 'HightouchRpcRequest' });

export const HightouchRpcResponse = z
  .object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]), result: z.record(z.string(), z.unknown()) })
  .meta({ id: 'HightouchRpcResponse' });

export const processHightouchRpcRoute = defineRoute({
  operationId: 'processHightouchRpcRequest',
  method: 'POST',
  path: '/v1/integrations/hightouch/embedded-destination',
  summary: 'Hightouch embedded destination: users are upserted (identify), workflow objects are inserted (trigger)',
  tags: ['Integrations'],
  auth: 'secret',
  rateTier: 3,
  body: HightouchRpcRequest,
  response: HightouchRpcResponse,
});
