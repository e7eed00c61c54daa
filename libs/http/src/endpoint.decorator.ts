import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { nestPath, RouteContract } from '@notify/contracts';
import { RouteBodyConfig } from './input-limits';

export const ROUTE_CONTRACT = 'notify:route-contract';

const methods = { GET: Get, PUT: Put, POST: Post, DELETE: Delete, PATCH: Patch } as const;

/** Routes a controller method from its contract: path, verb, status, and what the guards read. */
export function Endpoint(route: RouteContract) {
  return applyDecorators(
    methods[route.method](nestPath(route.path)),
    HttpCode(route.status ?? (route.response === null ? 204 : 200)),
    SetMetadata(ROUTE_CONTRACT, route),
    RouteConfig({
      notifyBody: { limit: route.bodyLimit, hasBody: !!route.body, form: route.formBody, raw: route.rawBody, stream: route.streamBody },
    } satisfies RouteBodyConfig),
  );
}
