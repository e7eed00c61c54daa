import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteContract } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { FastifyRequest } from 'fastify';
import { CREDENTIAL_STORE, CredentialStore } from './credentials';
import { ROUTE_CONTRACT } from './endpoint.decorator';
import { hashSecret } from './secrets';
import { TtlCache } from './ttl-cache';

export const missingKey = () =>
  new DomainError('api_key_missing', 'A valid API key must be sent as "Authorization: Bearer <key>"', 'unauthenticated');
export const notPermitted = (message = 'This key is not permitted to call this endpoint') =>
  new DomainError('authorization', message, 'forbidden');

type ApiKey = Awaited<ReturnType<CredentialStore['findApiKey']>>;
type ServiceToken = Awaited<ReturnType<CredentialStore['findServiceToken']>>;

/**
 * Authenticates every routed request against its contract's `auth`, and pins the request to one
 * environment. Lookups are cached briefly: a revoked key stops working within seconds.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly keys = new TtlCache<string, ApiKey>(5_000, 1_000);
  private readonly tokens = new TtlCache<string, ServiceToken>(5_000, 1_000);

  constructor(
    private readonly reflector: Reflector,
    @Inject(CREDENTIAL_STORE) private readonly credentials: CredentialStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<RouteContract | undefined>(ROUTE_CONTRACT, context.getHandler());
    if (!route) throw new Error(`Handler ${context.getClass().name}.${context.getHandler().name} has no @Endpoint contract`);
    if (route.auth === 'none') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const bearer = bearerToken(request.headers.authorization);
    if (!bearer) throw missingKey();
    const hash = hashSecret(bearer);

    if (route.auth === 'service') {
      const token = await this.tokens.get(hash, () => this.credentials.findServiceToken(hash));
      if (!token) {
        if (await this.keys.get(hash, () => this.credentials.findApiKey(hash))) throw notPermitted('The management API takes a service token, not an API key');
        throw missingKey();
      }
      const environment = (request.query as Record<string, unknown> | undefined)?.environment;
      if (route.scope === 'account' && environment === undefined) {
        // Account-wide resources: no environment is involved, and handlers of these routes never read it.
        request.ctx = { requestId: String(request.id), environment: '', credential: { kind: 'service', id: token.tokenId } };
        return true;
      }
      if (typeof environment !== 'string' || environment === '') {
        throw new DomainError('invalid_params', 'The environment query parameter is required', 'invalid_params', [
          { field: 'environment', message: 'is required', type: 'required' },
        ]);
      }
      if (!(await this.credentials.environmentExists(environment))) throw new DomainError('environment_missing', `No environment named ${environment}`, 'not_found');
      request.ctx = { requestId: String(request.id), environment, credential: { kind: 'service', id: token.tokenId } };
      return true;
    }

    const key = await this.keys.get(hash, () => this.credentials.findApiKey(hash));
    if (!key) throw missingKey();
    if (key.kind === 'publishable' && route.auth !== 'public') throw notPermitted('A publishable key cannot call this endpoint; use a secret key');
    request.ctx = { requestId: String(request.id), environment: key.environment, credential: { kind: key.kind, id: key.keyId } };
    return true;
  }
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
