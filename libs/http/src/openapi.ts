import { OpenAPIRegistry, OpenApiGeneratorV31, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ErrorBody, RouteContract } from '@notify/contracts';
import { z } from 'zod';

/** How an `idempotent: true` route treats the Idempotency-Key header (ADR 0093). */
const IDEMPOTENCY_HEADERS = z.object({
  'Idempotency-Key': z
    .string()
    .max(255)
    .optional()
    .meta({
      description:
        'Up to 255 characters, kept 24 hours per environment. A repeat with the same parameters answers the first 2xx response again with the headers ' +
        '`idempotent-replayed: true` and `original-x-request-id`; failed requests are not stored, so they can be retried with the same key. ' +
        'A repeat with other parameters (or on another endpoint) is refused with 422 `idempotency_key_reused`; one that arrives while the first is ' +
        'still running waits for its answer, and after 10 seconds is refused with 409 `idempotency_key_in_use`. A key over 255 characters: 422 `invalid_params`.',
    }),
});

/** The OpenAPI 3.1 document, generated from the same route contracts that route and validate. */
export function buildOpenApiDocument(routes: readonly RouteContract[], version: string): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'BearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'sk_ / pk_ API key, or a service token for the management API',
  });
  const sorted = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const status = route.status ?? (route.response === null ? 204 : 200);
    const success =
      route.response === null
        ? { description: 'No content' }
        : { description: 'OK', content: { [route.produces ?? 'application/json']: { schema: route.response } } };
    const config: RouteConfig = {
      method: route.method.toLowerCase() as RouteConfig['method'],
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      security: route.auth === 'none' ? [] : [{ BearerAuth: [] }],
      request: {
        params: route.params as z.ZodObject | undefined,
        query: route.query as z.ZodObject | undefined,
        ...(route.idempotent ? { headers: IDEMPOTENCY_HEADERS } : {}),
        body: route.body
          ? { content: { 'application/json': { schema: route.body } } }
          : route.streamBody === 'ndjson'
            ? {
                description: 'JSON lines: one JSON value a line, read as it arrives',
                content: { 'application/x-ndjson': { schema: z.string() } },
              }
            : route.streamBody === 'binary'
              ? {
                  description: "The file's bytes, read as they arrive; the Content-Type header names the file's type",
                  content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
                }
              : undefined,
      },
      responses: {
        [status]: success,
        ...(route.auth === 'none' ? {} : { '4XX': { description: 'Error', content: { 'application/json': { schema: ErrorBody } } } }),
      },
      ...(route.rateTier ? { 'x-ratelimit-tier': route.rateTier } : {}),
      ...(route.idempotent ? { 'x-idempotent': true } : {}),
      'x-auth': route.auth,
    };
    registry.registerPath(config);
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Notify API',
      version,
      description:
        'Self-hostable notification delivery service with a Knock-compatible API. Generated from the zod contracts in libs/contracts.',
    },
    servers: [{ url: '/' }],
  }) as unknown as Record<string, unknown>;
}
