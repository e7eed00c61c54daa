import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteContract } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { FastifyRequest } from 'fastify';
import { Authenticator } from './authenticator';
import { ROUTE_CONTRACT } from './endpoint.decorator';
import { scopedUserIds } from './user-scope';
import { requestTrace } from './request-trace';
import { userTokenOf } from './user-tokens';

export const missingKey = () =>
  new DomainError('api_key_missing', 'A valid API key must be sent as "Authorization: Bearer <key>"', 'unauthenticated');
export const notPermitted = (message = 'This key is not permitted to call this endpoint') =>
  new DomainError('authorization', message, 'forbidden');

/**
 * Authenticates every routed request against its contract's `auth`, and pins the request to one
 * environment. Publishable-key calls carry the user they act for: the signed user token's user,
 * which may only reach the users its contract's `userScope` names.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<RouteContract | undefined>(ROUTE_CONTRACT, context.getHandler());
    if (!route) throw new Error(`Handler ${context.getClass().name}.${context.getHandler().name} has no @Endpoint contract`);
    if (route.auth === 'none') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const bearer = bearerToken(request.headers.authorization);
    if (!bearer) throw missingKey();

    if (route.auth === 'service') {
      const token = await this.auth.serviceToken(bearer);
      if (!token) {
        if (await this.auth.apiKey(bearer)) throw notPermitted('The management API takes a service token, not an API key');
        throw missingKey();
      }
      const query = (request.query ?? {}) as Record<string, unknown>;
      if (query.environment === undefined && route.environmentDefault === 'first') {
        // The route's validation reads the query next: it sees the environment acted on.
        query.environment = await this.auth.firstEnvironment();
        request.query = query;
      }
      const environment = query.environment;
      if (route.scope === 'account' && environment === undefined) {
        // Account-wide resources: no environment is involved, and handlers of these routes never read it.
        request.ctx = {
          requestId: String(request.id),
          trace: requestTrace(request),
          environment: '',
          credential: { kind: 'service', id: token.tokenId },
        };
        return true;
      }
      if (typeof environment !== 'string' || environment === '') {
        throw new DomainError('invalid_params', 'The environment query parameter is required', 'invalid_params', [
          { field: 'environment', message: 'is required', type: 'required' },
        ]);
      }
      if (!(await this.auth.environmentExists(environment)))
        throw new DomainError('environment_missing', `No environment named ${environment}`, 'not_found');
      request.ctx = {
        requestId: String(request.id),
        trace: requestTrace(request),
        environment: await this.branchOf(environment, query.branch),
        credential: { kind: 'service', id: token.tokenId },
      };
      return true;
    }

    const key = await this.auth.apiKey(bearer);
    if (!key) throw missingKey();
    request.ctx = {
      requestId: String(request.id),
      trace: requestTrace(request),
      environment: key.environment,
      credential: { kind: key.kind, id: key.keyId },
    };
    if (key.kind === 'secret') return true;
    if (route.auth !== 'public') throw notPermitted('A publishable key cannot call this endpoint; use a secret key');
    if (!route.userScope) throw new Error(`Public route ${route.operationId} declares no userScope`);

    const userId = await this.auth.tokenUser(key, userTokenOf(request.headers));
    const named = scopedUserIds(route.userScope, request);
    if (userId === undefined && named.length === 0 && route.userScope !== 'handler' && !route.userScope.params?.length) {
      // e.g. a channel-wide bulk change: without a token, a publishable key must say whose messages it means.
      throw notPermitted('A publishable key call must name the user it acts for');
    }
    if (userId !== undefined) {
      const other = named.find((id) => id !== userId);
      if (other !== undefined) throw notPermitted(`The user token does not grant access to user ${other}`);
      request.ctx.userId = userId;
    }
    // Rate limits count per user for browser calls: the token's user, or the user the call names.
    request.ctx.subjectUserId = userId ?? named[0];
    return true;
  }

  /**
   * `?branch=<slug>` on an environment's route: the request reads and writes the branch's own
   * configuration space (ADR 0156). A bad slug is refused by the route's validation; the promote
   * route reads `branch` itself (it names no environment).
   */
  private async branchOf(environment: string, branch: unknown): Promise<string> {
    // A malformed slug is left to the route's validation (422 invalid_params).
    if (typeof branch !== 'string' || !/^[A-Za-z0-9_-]{1,255}$/.test(branch)) return environment;
    const key = await this.auth.branchEnvironment(environment, branch);
    if (!key) throw new DomainError('branch_not_found', `No branch named ${branch} in ${environment}`, 'not_found');
    return key;
  }
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
