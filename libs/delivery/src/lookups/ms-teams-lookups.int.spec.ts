import { localPeersOutbound } from '@notify/testing/outbound';
import { startHttpPeer, type Peer, type RecordedRequest } from '@notify/testing/peers';
import { microsoftGraphApi } from '@notify/testing/provider-peers';
import { MicrosoftTokens } from '../support/microsoft';
import { MsTeamsLookups } from './lookups';

// The peer listens on 127.0.0.1: these tests allow-list loopback, as a deployment would its own network.
const outbound = localPeersOutbound();
afterAll(() => outbound.close());

/**
 * Microsoft Graph tokens for lookups (ADR 0223): one client-credentials request per tenant and
 * credentials until a minute before the token expires, shared by concurrent callers, renewed
 * when Graph refuses it. Against a local identity platform and Graph (`microsoftGraphApi`).
 */
describe('MsTeamsLookups Graph tokens', () => {
  const tenantA = '7d1b2c3a-0000-4000-8000-00000000000a';
  const tenantB = '7d1b2c3a-0000-4000-8000-00000000000b';
  const app = {
    appId: '9b1c2d3e-0000-4000-8000-00000000b07a',
    password: 'lookups-app-password-01',
    issued: [] as string[],
    consented: new Set([tenantA, tenantB]),
  };
  let peer: Peer;
  let now: number;
  let tokens: MicrosoftTokens;
  let settings: Record<string, unknown>;

  const tokenRequests = (tenant?: string) =>
    peer.requests.filter((r: RecordedRequest) => r.url.endsWith('/oauth2/v2.0/token') && (!tenant || r.url.startsWith(`/${tenant}/`)));
  const graphRequests = () => peer.requests.filter((r: RecordedRequest) => r.url.startsWith('/v1.0/'));

  beforeAll(async () => {
    peer = await startHttpPeer(microsoftGraphApi(app));
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.length = 0;
    app.issued.length = 0;
    now = Date.parse('2026-11-26T10:00:00Z');
    tokens = new MicrosoftTokens(() => now);
    settings = { app_id: app.appId, app_password: app.password, login_url: peer.url, graph_url: peer.url };
  });

  it('signs in once per tenant and reuses the token until a minute before it expires (3599 s)', async () => {
    const lookups = new MsTeamsLookups(settings, outbound, tokens);
    expect(await lookups.teams(tenantA, {})).toMatchObject({ ok: true });
    expect(await lookups.teams(tenantA, { $top: 1 })).toMatchObject({ ok: true });
    // Another lookup object (another request) with the same tokens: still the same token.
    expect(await new MsTeamsLookups(settings, outbound, tokens).channels(tenantA, 'team-1', {})).toMatchObject({ ok: true });
    expect(tokenRequests(tenantA)).toHaveLength(1);
    expect(graphRequests().map((r) => r.headers.authorization)).toEqual(Array(3).fill(`Bearer ${app.issued[0]}`));

    // Another tenant, or other credentials, sign in on their own.
    expect(await lookups.teams(tenantB, {})).toMatchObject({ ok: true });
    expect(tokenRequests(tenantB)).toHaveLength(1);
    const otherApp = new MsTeamsLookups({ ...settings, app_password: 'wrong' }, outbound, tokens);
    expect(await otherApp.teams(tenantA, {})).toMatchObject({ ok: false, kind: 'auth' });
    expect(tokenRequests(tenantA)).toHaveLength(2);

    now += 3599_000 - 60_000 - 1;
    expect(await lookups.teams(tenantA, {})).toMatchObject({ ok: true });
    expect(tokenRequests(tenantA)).toHaveLength(2);
    now += 1;
    expect(await lookups.teams(tenantA, {})).toMatchObject({ ok: true });
    expect(tokenRequests(tenantA)).toHaveLength(3);
    expect(graphRequests().at(-1)!.headers.authorization).toBe(`Bearer ${app.issued.at(-1)}`);
  });

  it('asks for one token when lookups for the same tenant run at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => new MsTeamsLookups(settings, outbound, tokens).teams(tenantA, { $top: i + 1 })),
    );
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true]);
    expect(tokenRequests()).toHaveLength(1);
    expect(graphRequests()).toHaveLength(5);
  });

  it('signs in again once when Graph refuses the token (401), and reports a second refusal', async () => {
    const lookups = new MsTeamsLookups(settings, outbound, tokens);
    expect(await lookups.teams(tenantA, {})).toMatchObject({ ok: true });
    // The token stops working before it expires (revoked): Graph answers 401.
    const revoked = app.issued.splice(0);
    expect(await lookups.teams(tenantA, {})).toMatchObject({ ok: true });
    expect(tokenRequests()).toHaveLength(2);
    expect(graphRequests().map((r) => r.headers.authorization)).toEqual([
      `Bearer ${revoked[0]}`,
      `Bearer ${revoked[0]}`,
      `Bearer ${app.issued[0]}`,
    ]);
    // The new token is kept.
    expect(await lookups.teams(tenantA, {})).toMatchObject({ ok: true });
    expect(tokenRequests()).toHaveLength(2);

    // Graph refusing every token: one new sign-in, then the refusal is the answer (no loop).
    const refusing = await startHttpPeer((req) =>
      req.url.endsWith('/oauth2/v2.0/token')
        ? microsoftGraphApi(app)(req)
        : { status: 401, json: { error: { code: 'InvalidAuthenticationToken', message: 'Lifetime validation failed.' } } },
    );
    try {
      const answer = await new MsTeamsLookups({ ...settings, login_url: refusing.url, graph_url: refusing.url }, outbound, tokens).teams(
        tenantA,
        {},
      );
      expect(answer).toMatchObject({ ok: false, kind: 'auth', reason: expect.stringContaining('Lifetime validation failed') });
      expect(refusing.requests.map((r) => r.url.split('?')[0])).toEqual([
        `/${tenantA}/oauth2/v2.0/token`,
        '/v1.0/teams',
        `/${tenantA}/oauth2/v2.0/token`,
        '/v1.0/teams',
      ]);
    } finally {
      await refusing.close();
    }
  });

  it('checks a tenant with a new sign-in, which the next lookups then use', async () => {
    const lookups = new MsTeamsLookups(settings, outbound, tokens);
    expect(await lookups.teams(tenantA, {})).toMatchObject({ ok: true });
    expect(await lookups.authCheck(tenantA)).toEqual({ ok: true });
    expect(tokenRequests()).toHaveLength(2);
    expect(await lookups.teams(tenantA, {})).toMatchObject({ ok: true });
    expect(tokenRequests()).toHaveLength(2);
    expect(graphRequests().at(-1)!.headers.authorization).toBe(`Bearer ${app.issued[1]}`);
  });
});
