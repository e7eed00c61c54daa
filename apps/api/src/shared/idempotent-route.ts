import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import { checkIdempotencyKey, IdempotencyGate, requestFingerprint } from '@notify/application';
import { RouteContract } from '@notify/contracts';
import { EventStore } from '@notify/eventstore';
import { contextOf, ROUTE_CONTRACT } from '@notify/http';
import { EVENT_STORE } from '@notify/platform';
import { FastifyReply, FastifyRequest } from 'fastify';
import { commandMetadata } from './command-metadata';

export const IDEMPOTENCY_GATE = Symbol('IDEMPOTENCY_GATE');

/**
 * `Idempotency-Key` for the routes whose contract says `idempotent: true` (ADR 0093, 0238): the
 * route is marked `@IdempotentRoute()`, its handler takes `@Idempotency()` and runs its use case
 * through `IdempotentRoutes.run`. Not a Nest interceptor: an interceptor costs every request of
 * its route an observable chain and two async-context bindings (ADR 0238), whether it sends the
 * header or not; a handler without the header runs as any other.
 *
 * The key's shape is checked by a guard, as the interceptor did before the route's input was
 * parsed (a bad key is the error answered, whatever the body holds); input the contract refuses
 * is answered 422 by `@Input()` before the handler runs, so nothing is recorded for it.
 */
export const IdempotentRoute = () => applyDecorators(UseGuards(IdempotencyKeyGuard));

/** What the gate needs of the request: its route, its key (undefined when none was sent), request and reply. */
export interface IdempotencyScope {
  route: RouteContract;
  key: string | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

function headerKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  return Array.isArray(header) ? header[0] : header;
}

/** The factory of `@Idempotency()` (exported for the check that idempotent routes use it). */
export const idempotencyScopeFactory = (_: unknown, context: ExecutionContext): IdempotencyScope => {
  const route = Reflect.getMetadata(ROUTE_CONTRACT, context.getHandler()) as RouteContract | undefined;
  if (!route?.idempotent) throw new Error('@Idempotency() used on a route whose contract is not idempotent');
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return { route, key: headerKey(request), request, reply: context.switchToHttp().getResponse<FastifyReply>() };
};

export const Idempotency = createParamDecorator(idempotencyScopeFactory);

@Injectable()
export class IdempotencyKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const key = headerKey(context.switchToHttp().getRequest<FastifyRequest>());
    if (key !== undefined) checkIdempotencyKey(key);
    return true;
  }
}

@Injectable()
export class IdempotentRoutes {
  constructor(@Inject(IDEMPOTENCY_GATE) private readonly gate: IdempotencyGate) {}

  /**
   * Runs the route's use case: at once without a key; with one, through the gate, and a replay
   * answers the stored response with `idempotent-replayed: true` and `original-x-request-id`.
   */
  async run<T>(scope: IdempotencyScope, execute: () => Promise<T>): Promise<T> {
    const { route, key, request, reply } = scope;
    if (key === undefined) return execute();
    const ctx = contextOf(request);
    const status = route.status ?? (route.response === null ? 204 : 200);
    const result = await this.gate.run(
      {
        environment: ctx.environment,
        key,
        operation: route.operationId,
        fingerprint: requestFingerprint({ params: request.params, query: request.query, body: request.body }),
        requestId: ctx.requestId,
        metadata: commandMetadata(ctx),
      },
      async () => ({ status, body: await execute() }),
    );
    if (!result.replayed) return result.response.body as T;
    void reply
      .status(result.response.status)
      .header('idempotent-replayed', 'true')
      .header('original-x-request-id', result.originalRequestId);
    return (result.response.status === 204 ? undefined : result.response.body) as T;
  }
}

/** The gate over the event store, and the service the idempotent routes' controllers call. */
export const idempotencyProviders = [
  { provide: IDEMPOTENCY_GATE, inject: [EVENT_STORE], useFactory: (store: EventStore) => new IdempotencyGate(store) },
  IdempotencyKeyGuard,
  IdempotentRoutes,
];
