import { UserTokenPolicy } from './user-tokens';

/** How the auth guard resolves credentials; the api app supplies it from the read model. */
export interface CredentialStore {
  /**
   * An active API key, and the credentials version: a value that changes in the same commit as
   * any change to keys, signing keys or security modes, read with the key in one statement;
   * and the configuration version (ADR 0217), read in the same statement, when the store has one.
   */
  findApiKey(
    keyHash: string,
  ): Promise<
    { keyId: string; environment: string; kind: 'secret' | 'publishable'; credentialsVersion: string; configVersion?: string } | undefined
  >;
  /** Notes that a key was used (its last-used time); the store may coarsen it (ADR 0152). */
  recordApiKeyUse(keyId: string): Promise<void>;
  findServiceToken(tokenHash: string): Promise<{ tokenId: string } | undefined>;
  /** A member of the account as it stands now (a console session names one; ADR 0210). */
  findMember(memberId: string): Promise<{ memberId: string; email: string; name: string | null; role: string } | undefined>;
  environmentExists(slug: string): Promise<boolean>;
  /** The first environment in order (where configuration is edited). */
  firstEnvironment(): Promise<string | undefined>;
  /** The configuration space of a branch of `environment` (ADR 0156), or undefined when it has no such branch. */
  branchEnvironment(environment: string, branch: string): Promise<string | undefined>;
  /** Enhanced security mode and the active signing keys of an environment. */
  userTokenPolicy(environment: string): Promise<UserTokenPolicy>;
}

export const CREDENTIAL_STORE = Symbol('CREDENTIAL_STORE');
