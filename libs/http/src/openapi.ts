import { OpenAPIRegistry, OpenApiGeneratorV31, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ErrorBody, RouteContract } from '@notify/contracts';
import { z } from 'zod';

/** The OpenAPI 3.1 document, generated from the same route contracts that route and validate. */
export function buildOpenApiDocument(routes: readonly RouteContract[], version: string): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'BearerAuth', { type: 'http', scheme: 'bearer', description: 'sk_ / pk_ API key, or a service token for the management API' });
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
        body: route.body ? { content: { 'application/json': { schema: route.body } } } : undefined,
      },
      responses: {
        [status]: success,
        ...(route.auth === 'none' ? {} : { '4XX': { description: 'Error', content: { 'application/json': { schema: ErrorBody } } } }),
      },
      ...(route.rateTier ? { 'x-ratelimit-tier': route.rateTier } : {}),
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
      description: 'Self-hostable notification delivery service with a Knock-compatible API. Generated from the zod contracts in libs/contracts.',
    },
    servers: [{ url: '/' }],
  }) as unknown as Record<string, unknown>;
}
