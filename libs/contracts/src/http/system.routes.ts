import { z } from 'zod';
import { defineRoute } from './route';

const BackendHealth = z.object({ status: z.enum(['up', 'down', 'disabled']), detail: z.string().optional() });

export const healthzRoute = defineRoute({
  operationId: 'healthz',
  method: 'GET',
  path: '/healthz',
  summary: 'Liveness: the process is serving requests',
  tags: ['System'],
  auth: 'none',
  response: z.object({ status: z.literal('ok') }),
});

export const readyzRoute = defineRoute({
  operationId: 'readyz',
  method: 'GET',
  path: '/readyz',
  summary: 'Readiness: every backend this process needs answers; 503 otherwise',
  tags: ['System'],
  auth: 'none',
  response: z.object({
    status: z.enum(['ready', 'not_ready']),
    backends: z.record(z.string(), BackendHealth),
    projections: z
      .array(z.object({ name: z.string(), position: z.string(), events_applied: z.number(), last_error: z.string().optional() }))
      .optional(),
    projection_lag: z.number().optional(),
    /** Present when Kafka is configured and the relay has a checkpoint. */
    kafka_relay: z
      .object({
        name: z.string(),
        position: z.string(),
        lag_events: z.number().describe('Events in the log not yet acknowledged by Kafka'),
        lag_seconds: z.number().describe('Age of the oldest event not yet acknowledged by Kafka'),
        events_published: z.number(),
      })
      .optional(),
  }),
});

export const metricsRoute = defineRoute({
  operationId: 'metrics',
  method: 'GET',
  path: '/metrics',
  summary: 'Metrics in the Prometheus text format (relay and projection lag)',
  tags: ['System'],
  auth: 'none',
  response: z.string(),
  produces: 'text/plain; version=0.0.4',
});

export const openApiJsonRoute = defineRoute({
  operationId: 'openapiJson',
  method: 'GET',
  path: '/openapi.json',
  summary: 'This API described as OpenAPI 3.1 (JSON)',
  tags: ['System'],
  auth: 'none',
  response: z.record(z.string(), z.unknown()),
});

export const openApiYamlRoute = defineRoute({
  operationId: 'openapiYaml',
  method: 'GET',
  path: '/openapi.yaml',
  summary: 'This API described as OpenAPI 3.1 (YAML)',
  tags: ['System'],
  auth: 'none',
  response: z.string(),
  produces: 'application/yaml',
});
