import { z } from 'zod';
import { defineRoute } from '../http/route';

/**
 * Rebuilding a read model from the log over HTTP (ADR 0211), as `notify projections rebuild`
 * does: the console starts one and follows its progress.
 */
export const ProjectionRebuild = z
  .object({
    projection: z.string(),
    state: z.enum(['running', 'done', 'failed']),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    /** How far through the log the rebuild is, in log positions (events, on Postgres), of `events_total`: the head when it started. */
    events_done: z.number().int(),
    events_total: z.number().int(),
    /** Events the projection applied so far. */
    events_applied: z.number().int(),
    /** Log positions replayed per second since the start. */
    events_per_second: z.number(),
    error: z.string().nullable(),
  })
  .meta({ id: 'ProjectionRebuild' });
export type ProjectionRebuildT = z.infer<typeof ProjectionRebuild>;

const ProjectionPath = z.strictObject({ name: z.string().min(1).max(100) });

export const startProjectionRebuildRoute = defineRoute({
  operationId: 'startProjectionRebuild',
  method: 'POST',
  path: '/v1/projections/{name}/rebuild',
  summary: 'Empty a read model and replay the whole log into it, in the background; answers its progress',
  tags: ['Projections'],
  auth: 'service',
  scope: 'account',
  access: 'admin',
  rateTier: 2,
  params: ProjectionPath,
  response: ProjectionRebuild,
  status: 202,
});

export const getProjectionRebuildRoute = defineRoute({
  operationId: 'getProjectionRebuild',
  method: 'GET',
  path: '/v1/projections/{name}/rebuild',
  summary: 'The progress of the latest rebuild of a read model started through this api process',
  tags: ['Projections'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  params: ProjectionPath,
  response: ProjectionRebuild,
});
