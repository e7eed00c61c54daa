import { Inject, Injectable } from '@nestjs/common';
import { CREDENTIAL_STORE, CredentialStore } from './credentials';
import { hashSecret } from '@notify/application';
import { TtlCache } from './ttl-cache';
import { missingUserToken, UserTokenPolicy, verifyUserTokenClaims } from './user-tokens';

export type ApiKey = NonNullable<Awaited<ReturnType<CredentialStore['findApiKey']>>>;
export type ServiceToken = NonNullable<Awaited<ReturnType<CredentialStore['findServiceToken']>>>;

/**
 * Resolves credentials for every entry point (HTTP routes and the websocket). Lookups are cached
 * briefly: a revoked key, a rotated signing key or a change of security mode takes effect within
 * seconds on every api instance.
 */
@Injectable()
export class Authenticator {
  private readonly keys = new TtlCache<string, ApiKey | undefined>(5_000, 1_000);
  private readonly tokens = new TtlCache<string, ServiceToken | undefined>(5_000, 1_000);
  private readonly policies = new TtlCache<string, UserTokenPolicy>(2_000, 2_000);

  constructor(@Inject(CREDENTIAL_STORE) private readonly credentials: CredentialStore) {}

  apiKey(secret: string): Promise<ApiKey | undefined> {
    const hash = hashSecret(secret);
    return this.keys.get(hash, () => this.credentials.findApiKey(hash));
  }

  serviceToken(secret: string): Promise<ServiceToken | undefined> {
    const hash = hashSecret(secret);
    return this.tokens.get(hash, () => this.credentials.findServiceToken(hash));
  }

  environmentExists(slug: string): Promise<boolean> {
    return this.credentials.environmentExists(slug);
  }

  /**
   * The user a publishable-key call acts for, proven by its user token; undefined when no token
   * was sent and the environment does not require one. Throws the user-token errors.
   */
  async tokenUser(environment: string, userToken: string | undefined): Promise<string | undefined> {
    return (await this.tokenIdentity(environment, userToken))?.userId;
  }

  /** As tokenUser, with when the token expires (a websocket is closed then). */
  async tokenIdentity(environment: string, userToken: string | undefined): Promise<{ userId: string; expiresAt: number } | undefined> {
    const policy = await this.policies.get(environment, () => this.credentials.userTokenPolicy(environment));
    if (userToken === undefined) {
      if (policy.enhancedSecurityMode) throw missingUserToken();
      return undefined;
    }
    return verifyUserTokenClaims(userToken, policy);
  }
}
