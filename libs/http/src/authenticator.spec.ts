import { Authenticator } from './authenticator';
import { CredentialStore } from './credentials';
import { UserTokenPolicy } from './user-tokens';

/** A credential store whose state the test changes, counting how often each policy is read. */
class FakeStore implements CredentialStore {
  version = 'v1';
  policy: UserTokenPolicy = { enhancedSecurityMode: false, signingKeys: [] };
  loads = 0;
  failNext = false;
  /** When set, policy reads wait for it (two requests in flight at once). */
  gate?: Promise<void>;

  async findApiKey() {
    return { keyId: 'k', environment: 'dev', kind: 'publishable' as const, credentialsVersion: this.version };
  }
  uses = 0;
  async recordApiKeyUse() {
    this.uses++;
  }
  async findMember() {
    return undefined;
  }
  async findServiceToken() {
    return undefined;
  }
  async environmentExists() {
    return true;
  }
  async branchEnvironment() {
    return undefined;
  }
  async firstEnvironment() {
    return 'development';
  }
  async userTokenPolicy(): Promise<UserTokenPolicy> {
    this.loads++;
    const snapshot = this.policy;
    await this.gate;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('timeout exceeded when trying to connect');
    }
    return snapshot;
  }
}

describe('Authenticator: user-token policy as of the credentials version', () => {
  let store: FakeStore;
  let auth: Authenticator;
  const key = async () => (await auth.apiKey('pk_test'))!;

  beforeEach(() => {
    store = new FakeStore();
    auth = new Authenticator(store);
  });

  it('reads the policy once per version, and again as soon as the version moves', async () => {
    await expect(auth.tokenUser(await key(), undefined)).resolves.toBeUndefined();
    await expect(auth.tokenUser(await key(), undefined)).resolves.toBeUndefined();
    expect(store.loads).toBe(1);

    store.policy = { enhancedSecurityMode: true, signingKeys: [] };
    store.version = 'v2';
    await expect(auth.tokenUser(await key(), undefined)).rejects.toMatchObject({ code: 'missing_user_token' });
    expect(store.loads).toBe(2);
  });

  it('shares one read between requests of one version in flight together', async () => {
    let open!: () => void;
    store.gate = new Promise((r) => (open = r));
    const k = await key();
    const both = Promise.all([auth.tokenUser(k, undefined), auth.tokenUser(k, undefined)]);
    open();
    await both;
    expect(store.loads).toBe(1);
  });

  it('does not keep a failed read', async () => {
    store.failNext = true;
    await expect(auth.tokenUser(await key(), undefined)).rejects.toThrow('timeout exceeded');
    await expect(auth.tokenUser(await key(), undefined)).resolves.toBeUndefined();
    expect(store.loads).toBe(2);
  });

  it('serves a request that read an older version without evicting the newer policy', async () => {
    const old = await key();
    store.version = 'v2';
    store.policy = { enhancedSecurityMode: true, signingKeys: [] };
    await expect(auth.tokenUser(await key(), undefined)).rejects.toMatchObject({ code: 'missing_user_token' });
    await auth.tokenUser(old, undefined).catch(() => undefined);
    await expect(auth.tokenUser(await key(), undefined)).rejects.toMatchObject({ code: 'missing_user_token' });
    expect(store.loads).toBe(2); // v2 once, the old request once; v2 still cached
  });

  it("records a key's use once for a burst of requests", async () => {
    await key();
    await key();
    await key();
    expect(store.uses).toBe(1);
  });
});
