import { z } from 'zod';
import { defineRoute } from '../http/route';
import { mgmtListOf, MgmtPageQuery, ReadOptions } from './mgmt';

/**
 * Guides are not implemented yet, so none can exist: their lists are empty, and
 * nothing else of them is served (getting or writing one answers 404). The Knock CLI lists every
 * resource type in `knock pull --all` and stops at the first list that fails (ADR 0123).
 */
const NoneYet = z
  .object({ key: z.string(), name: z.string() })
  .meta({ id: 'UnimplementedResource', description: 'None can exist yet: this service does not implement the resource.' });

export const listGuidesRoute = defineRoute({
  operationId: 'listGuides',
  method: 'GET',
  path: '/v1/guides',
  summary: 'List guides: always empty, guides are not implemented yet',
  tags: ['Guides'],
  auth: 'service',
  rateTier: 4,
  query: ReadOptions.extend(MgmtPageQuery.shape).extend({ include_json_schema: z.string().optional() }),
  response: mgmtListOf(NoneYet).meta({ id: 'ListGuidesResponse' }),
});
