import { Inject, Injectable } from '@nestjs/common';
import { CREDENTIAL_STORE, CredentialStore } from './credentials';
import { hashSecret } from '@notify/application';
import { missingUserToken, UserTokenPolicy, verifyUserTokenClaims } from './user-tokens';

export type ApiKey = NonNullable<Awaited<ReturnType<CredentialStore['findApiKey']>>>;
export type ServiceToken = NonNullable<Awaited<ReturnType<CredentialStore['findServiceToken']>>>;

/** A key's last-used time is written at most this often by one process (a request may be the first of many). */
const USE_RECORD_INTERVAL_MS = 60_000;
/** Keys whose last recorded use is remembered; past it the memory starts again. */
const MAX_USE_MEMORY = 10_000;

/** Environments whose user-token policy is kept; past it the oldest is dropped. */
const MAX_POLICIES = 10_000;

/**
 * Resolves credentials for every entry point (HTTP routes and the websocket), as they stand in
 * the read model when the request arrives, on every api instance (ADR 0136): API keys and
 * service tokens are read per request (one indexed row; a revoked key fails at once), and an
 * environment's user-token policy (security mode and signing keys) is cached only as of a
 * credentials version, read with the key in the same statement. Any change to credentials moves
 * that version in the commit that makes the change, so the first request after it reloads.
 */
@Injectable()
export class Authenticator {
  private readonly policies = new Map<string, { version: string; policy: Promise<UserTokenPolicy> }>();
  private readonly recordedUse = new Map<string, number>();

  constructor(@Inject(CREDENTIAL_STORE) private readonly credentials: CredentialStore) {}

  async apiKey(secret: string): Promise<ApiKey | undefined> {
    const key = await this.credentials.findApiKey(hashSecret(secret));
    if (key) this.noteUse(key.keyId);
    return key;
  }

  /** Records the key's last use in the background: a failure to record never fails the request. */
  private noteUse(keyId: string): void {
    const now = Date.now();
    const last = this.recordedUse.get(keyId);
    if (last !== undefined && now - last < USE_RECORD_INTERVAL_MS) return;
    if (this.recordedUse.size >= MAX_USE_MEMORY) this.recordedUse.clear();
    this.recordedUse.set(keyId, now);
    this.credentials.recordApiKeyUse(keyId).catch(() => this.recordedUse.delete(keyId));
  }

  serviceToken(secret: string): Promise<ServiceToken | undefined> {
    return this.credentials.findServiceToken(hashSecret(secret));
  }

  /** Read per request, like service tokens: a removed member or a changed role applies to the next call. */
  member(memberId: string) {
    return this.credentials.findMember(memberId);
  }

  environmentExists(slug: string): Promise<boolean> {
    return this.credentials.environmentExists(slug);
  }

  firstEnvironment(): Promise<string | undefined> {
    return this.credentials.firstEnvironment();
  }

  branchEnvironment(environment: string, branch: string): Promise<string | undefined> {
    return this.credentials.branchEnvironment(environment, branch);
  }

  /**
   * The user a publishable-key call acts for, proven by its user token; undefined when no token
   * was sent and the environment does not require one. Throws the user-token errors.
   */
  async tokenUser(key: ApiKey, userToken: string | undefined): Promise<string | undefined> {
    return (await this.tokenIdentity(key, userToken))?.userId;
  }

  /** As tokenUser, with when the token expires (a websocket is closed then). */
  async tokenIdentity(key: ApiKey, userToken: string | undefined): Promise<{ userId: string; expiresAt: number } | undefined> {
    const policy = await this.policy(key.environment, key.credentialsVersion);
    if (userToken === undefined) {
      if (policy.enhancedSecurityMode) throw missingUserToken();
      return undefined;
    }
    return verifyUserTokenClaims(userToken, policy);
  }

  /**
   * The environment's policy as of `version`. Concurrent requests share one load; a load that
   * began under an older version is never used for a newer one (it is keyed by the version its
   * request read, and a newer version replaces it). A failed load is not kept.
   */
  private policy(environment: string, version: string): Promise<UserTokenPolicy> {
    const cached = this.policies.get(environment);
    if (cached?.version === version) return cached.policy;
    // A request that read the version before a change the cache already holds (versions are log
    // positions, ordered as strings): load for it alone rather than evict the newer entry.
    if (cached && cached.version > version) return this.credentials.userTokenPolicy(environment);
    const entry = { version, policy: this.credentials.userTokenPolicy(environment) };
    if (!cached && this.policies.size >= MAX_POLICIES) this.policies.delete(this.policies.keys().next().value!);
    this.policies.set(environment, entry);
    entry.policy.catch(() => {
      if (this.policies.get(environment) === entry) this.policies.delete(environment);
    });
    return entry.policy;
  }
}
