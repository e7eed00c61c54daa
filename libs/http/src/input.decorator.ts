import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { RouteContract } from '@notify/contracts';
import { FieldError, invalidParams } from '@notify/domain';
import { FastifyRequest } from 'fastify';
import { ROUTE_CONTRACT } from './endpoint.decorator';
import { contextOf, RequestContext } from './request-context';
import { fieldErrors } from '@notify/application';

/**
 * The route's validated input: path params, query and body parsed by the contract's schemas.
 * Any failure becomes one 422 listing every offending field, before the handler runs.
 */
export const Input = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const route = Reflect.getMetadata(ROUTE_CONTRACT, ctx.getHandler()) as RouteContract | undefined;
  if (!route) throw new Error('@Input() used on a method without @Endpoint()');
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  const errors: FieldError[] = [];
  const parse = (schema: RouteContract['params'], value: unknown) => {
    if (!schema) return {};
    // No body at all reads as an empty one; a JSON `null` body is a value like any other (and
    // not an object).
    const result = schema.safeParse(value === undefined ? {} : value);
    if (result.success) return result.data;
    errors.push(...fieldErrors(result.error));
    return undefined;
  };
  const params = parse(route.params, request.params);
  const query = parse(route.query, request.query);
  const body = route.body ? parse(route.body, request.body) : undefined;
  if (errors.length) throw invalidParams(errors);
  return { params, query, body };
});

export const Ctx = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestContext =>
  contextOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);
