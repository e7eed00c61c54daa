import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteContract } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { FastifyRequest } from 'fastify';
import { Authenticator } from './authenticator';
import {
  CONSOLE_ENVIRONMENT_HEADER,
  CONSOLE_REQUEST_HEADER,
  CONSOLE_SESSION_COOKIE,
  ConsoleSessionSigner,
  consoleRole,
  cookieValue,
  permits,
  routeAccess,
} from './console-sessions';
import { ROUTE_CONTRACT } from './endpoint.decorator';
import { scopedUserIds } from './user-scope';
import { requestTrace } from './request-trace';
import { RequestContext } from './request-context';
import { userTokenOf } from './user-tokens';

export const missingKey = () =>
  new DomainError('api_key_missing', 'A valid API key must be sent as "Authorization: Bearer <key>"', 'unauthenticated');
/**
 * A key or token was sent and is not one this service knows (or it was revoked). Knock answers
 * that with the same code as no key at all (`api_key_missing`: "The API key you provided is
 * invalid"), which its clients know; the message says which case it is.
 */
export const invalidKey = (what = 'API key') =>
  new DomainError('api_key_missing', `The ${what} you provided is invalid (unknown, revoked or expired)`, 'unauthenticated');
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
    @Optional() private readonly sessions?: ConsoleSessionSigner,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<RouteContract | undefined>(ROUTE_CONTRACT, context.getHandler());
    if (!route) throw new Error(`Handler ${context.getClass().name}.${context.getHandler().name} has no @Endpoint contract`);
    if (route.auth === 'none') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const bearer = bearerToken(request.headers.authorization);
    if (!bearer) {
      const member = await this.sessionMember(request, route);
      if (!member) throw missingKey();
      if (route.auth === 'service') return this.pinService(request, route, { kind: 'member', id: member });
      return this.pinMemberEnvironment(request, member);
    }

    if (route.auth === 'service') {
      const token = await this.auth.serviceToken(bearer);
      if (!token) {
        if (await this.auth.apiKey(bearer)) throw notPermitted('The management API takes a service token, not an API key');
        throw invalidKey('service token');
      }
      return this.pinService(request, route, { kind: 'service', id: token.tokenId });
    }
    const key = await this.auth.apiKey(bearer);
    if (!key) throw invalidKey();
    request.ctx = {
      requestId: String(request.id),
      trace: requestTrace(request),
      environment: key.environment,
      credential: { kind: key.kind, id: key.keyId },
      ...(key.configVersion ? { configVersion: key.configVersion } : {}),
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

  /** Pins a management (service-auth) request to the environment its query names. */
  private async pinService(request: FastifyRequest, route: RouteContract, credential: RequestContext['credential']): Promise<boolean> {
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
        credential,
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
      credential,
    };
    return true;
  }

  /**
   * The member of a console session cookie (ADR 0210), when the request carries a valid one, the
   * member still exists and its role permits the route; writes must also carry the console's
   * request header, which a cross-site form cannot send.
   */
  private async sessionMember(request: FastifyRequest, route: RouteContract): Promise<string | undefined> {
    if (!this.sessions) return undefined;
    const claims = this.sessions.verifySession(cookieValue(request.headers.cookie, CONSOLE_SESSION_COOKIE));
    if (!claims) return undefined;
    const member = await this.auth.member(claims.memberId);
    if (!member) return undefined;
    // Another origin's page (the API reflects origins for browser clients) never acts with the console's cookie.
    const origin = request.headers.origin;
    if (origin !== undefined && !sameHost(origin, request.headers.host, request.headers['x-forwarded-host']))
      throw notPermitted('A console session is used by the console only, from its own origin');
    const access = routeAccess(route);
    if (route.method !== 'GET' && request.headers[CONSOLE_REQUEST_HEADER] === undefined)
      throw notPermitted(`A console session must send the ${CONSOLE_REQUEST_HEADER} header with a write`);
    const role = consoleRole(member.role);
    if (!permits(role, access))
      throw new DomainError(
        'insufficient_role',
        `The ${member.role} role may not call ${route.operationId} (it needs ${access === 'admin' ? 'an owner or admin' : 'a role that can edit'})`,
        'forbidden',
      );
    return member.memberId;
  }

  /** A console session on a public API route: the environment comes from the console's header. */
  private async pinMemberEnvironment(request: FastifyRequest, memberId: string): Promise<boolean> {
    const environment = request.headers[CONSOLE_ENVIRONMENT_HEADER];
    if (typeof environment !== 'string' || environment === '')
      throw new DomainError(
        'invalid_params',
        `A console session must name the environment in ${CONSOLE_ENVIRONMENT_HEADER}`,
        'invalid_params',
        [{ field: CONSOLE_ENVIRONMENT_HEADER, message: 'is required', type: 'required' }],
      );
    if (!(await this.auth.environmentExists(environment)))
      throw new DomainError('environment_missing', `No environment named ${environment}`, 'not_found');
    request.ctx = {
      requestId: String(request.id),
      trace: requestTrace(request),
      environment,
      credential: { kind: 'member', id: memberId },
    };
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

function sameHost(origin: string, host: string | undefined, forwarded: string | string[] | undefined): boolean {
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const forwardedHost = typeof forwarded === 'string' ? forwarded.split(',')[0].trim() : undefined;
  return originHost === host || originHost === forwardedHost;
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
