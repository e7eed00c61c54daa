import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { checkIdempotencyKey, IdempotencyGate, requestFingerprint } from '@notify/application';
import { RouteContract } from '@notify/contracts';
import { EventStore } from '@notify/eventstore';
import { ROUTE_CONTRACT } from '@notify/http';
import { EVENT_STORE } from '@notify/platform';
import { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, map, Observable } from 'rxjs';
import { commandMetadata } from './command-metadata';

export const IDEMPOTENCY_GATE = Symbol('IDEMPOTENCY_GATE');

const accepts = (schema: RouteContract['params'], value: unknown) => !schema || schema.safeParse(value ?? {}).success;

/**
 * `Idempotency-Key` for every route whose contract says `idempotent: true` (ADR 0093), applied to
 * those routes only (`@UseInterceptors`): an interceptor on every route costs every request an
 * observable chain and async-context wrappers (idempotent-routes.spec.ts keeps the two in step). Input the
 * contract refuses goes straight to the handler (which answers 422) so nothing is recorded for
 * it; otherwise the request runs through the IdempotencyGate and a replay answers the stored
 * response with `idempotent-replayed: true` and `original-x-request-id`.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(IDEMPOTENCY_GATE) private readonly gate: IdempotencyGate,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<RouteContract | undefined>(ROUTE_CONTRACT, context.getHandler());
    if (!route?.idempotent) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined) return next.handle();
    checkIdempotencyKey(key);
    if (
      !accepts(route.params, request.params) ||
      !accepts(route.query, request.query) ||
      (route.body && !accepts(route.body, request.body))
    )
      return next.handle();

    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const ctx = request.ctx!;
    const status = route.status ?? (route.response === null ? 204 : 200);
    const fingerprint = requestFingerprint({ params: request.params, query: request.query, body: request.body });
    const outcome = this.gate.run(
      {
        environment: ctx.environment,
        key,
        operation: route.operationId,
        fingerprint,
        requestId: ctx.requestId,
        metadata: commandMetadata(ctx),
      },
      async () => ({ status, body: await lastValueFrom(next.handle(), { defaultValue: undefined }) }),
    );
    return from(outcome).pipe(
      map((result) => {
        if (!result.replayed) return result.response.body;
        void reply
          .status(result.response.status)
          .header('idempotent-replayed', 'true')
          .header('original-x-request-id', result.originalRequestId);
        return result.response.status === 204 ? undefined : result.response.body;
      }),
    );
  }
}

/** The gate over the event store, for the interceptor. */
export const idempotencyProviders = [
  { provide: IDEMPOTENCY_GATE, inject: [EVENT_STORE], useFactory: (store: EventStore) => new IdempotencyGate(store) },
];
