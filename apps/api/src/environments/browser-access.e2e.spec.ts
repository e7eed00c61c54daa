import Knock from '@knocklabs/client';
import { SignJWT } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import { createSigningKey, setEnhancedSecurity, userToken } from '../../../../test/support/browser-access';
import { configureChannel } from '../../../../test/support/channels';
import { eventually } from '../../../../test/support/recipients';
import { startTestApp, TestApp, TestEnvironment } from '../../../../test/support/test-app';

/** A browser client as the app ships it: publishable key plus (optionally) a signed user token. */
function browserClient(t: TestApp, env: TestEnvironment, userId: string, token?: string): Knock {
  const knock = new Knock(env.publishableKey, { host: t.url });
  knock.authenticate(userId, token);
  return knock;
}

/** A request through the official client's own HTTP layer, keeping status and error body. */
async function call(knock: Knock, method: string, url: string, data?: unknown): Promise<{ status: number; body: any }> {
  const res = await knock.client().makeRequest({ method, url, data });
  return { status: res.status, body: res.body };
}

describe('browser access: signing keys, user tokens, enhanced security mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  describe('signing keys in the management API', () => {
    it('creates a key whose private half is returned once, lists public halves, rotates and revokes', async () => {
      const env = await t.newEnvironment();
      const first = await createSigningKey(t, env.slug);
      expect(first.body).toMatchObject({
        environment: env.slug,
        algorithm: 'RS256',
        public_key: expect.stringContaining('-----BEGIN PUBLIC KEY-----'),
        private_key: expect.stringContaining('-----BEGIN PRIVATE KEY-----'),
        revoked_at: null,
        revoked_signing_key_ids: [],
      });
      const second = await createSigningKey(t, env.slug);
      let list = await t.http('GET', `/v1/environments/${env.slug}/signing_keys`, { key: t.serviceToken });
      expect(list.status).toBe(200);
      expect(list.body.entries.map((k: any) => [k.id, k.revoked_at])).toEqual([
        [first.id, null],
        [second.id, null],
      ]);
      expect(JSON.stringify(list.body)).not.toContain('PRIVATE KEY');
      // Only the public half ever reaches the log.
      const logged = await t.sql("SELECT data::text AS d FROM es_events WHERE event_type = 'SigningKeyCreated' AND stream_id = $1", [
        `environment-${env.slug}`,
      ]);
      expect(logged).toHaveLength(2);
      expect(logged.every((e: any) => !e.d.includes('PRIVATE'))).toBe(true);

      const rotated = await createSigningKey(t, env.slug, true);
      expect(rotated.body.revoked_signing_key_ids.sort()).toEqual([first.id, second.id].sort());
      list = await t.http('GET', `/v1/environments/${env.slug}/signing_keys`, { key: t.serviceToken });
      expect(list.body.entries.filter((k: any) => k.revoked_at === null).map((k: any) => k.id)).toEqual([rotated.id]);

      const revoked = await t.http('DELETE', `/v1/environments/${env.slug}/signing_keys/${rotated.id}`, { key: t.serviceToken });
      expect(revoked).toMatchObject({ status: 200, body: { id: rotated.id, revoked_at: expect.any(String) } });
      expect((await t.http('GET', `/v1/environments/${env.slug}/security`, { key: t.serviceToken })).body).toEqual({
        environment: env.slug,
        enhanced_security_mode: false,
        active_signing_keys: 0,
      });
    });

    it('refuses unknown environments and keys, bad input and API keys, writing nothing', async () => {
      const before = (
        await t.sql(
          "SELECT count(*)::int AS c FROM es_events WHERE event_type LIKE 'SigningKey%' OR event_type = 'EnhancedSecurityModeChanged'",
        )
      )[0].c;
      expect(await t.http('POST', '/v1/environments/nowhere/signing_keys', { key: t.serviceToken })).toMatchObject({
        status: 404,
        body: { code: 'environment_missing' },
      });
      expect(await t.http('POST', '/v1/environments/Not_A_Slug/signing_keys', { key: t.serviceToken })).toMatchObject({
        status: 422,
        body: { code: 'invalid_params', errors: [expect.objectContaining({ field: 'environment_slug' })] },
      });
      expect(
        await t.http('DELETE', '/v1/environments/development/signing_keys/00000000-0000-4000-8000-000000000000', { key: t.serviceToken }),
      ).toMatchObject({
        status: 404,
        body: { code: 'signing_key_missing' },
      });
      expect(await t.http('DELETE', '/v1/environments/development/signing_keys/nope', { key: t.serviceToken })).toMatchObject({
        status: 422,
      });
      expect(
        await t.http('PUT', '/v1/environments/development/security', { key: t.serviceToken, body: { enhanced_security_mode: 'yes' } }),
      ).toMatchObject({
        status: 422,
        body: { errors: [expect.objectContaining({ field: 'enhanced_security_mode' })] },
      });
      expect(
        await t.http('PUT', '/v1/environments/development/security', {
          key: t.serviceToken,
          body: { enhanced_security_mode: true, extra: 1 },
        }),
      ).toMatchObject({ status: 422 });
      expect(await t.http('POST', '/v1/environments/development/signing_keys', { key: t.env.secretKey })).toMatchObject({
        status: 403,
        body: { code: 'authorization' },
      });
      expect(await t.http('POST', '/v1/environments/development/signing_keys', { key: null })).toMatchObject({
        status: 401,
        body: { code: 'api_key_missing' },
      });
      const after = (
        await t.sql(
          "SELECT count(*)::int AS c FROM es_events WHERE event_type LIKE 'SigningKey%' OR event_type = 'EnhancedSecurityModeChanged'",
        )
      )[0].c;
      expect(after).toBe(before);
    });
  });

  describe('publishable key calls', () => {
    let env: TestEnvironment;
    let privateKey: string;
    let channelId: string;

    beforeAll(async () => {
      env = await t.newEnvironment();
      const secret = t.knock(env.secretKey);
      await secret.users.update('alice', { name: 'Alice' });
      await secret.users.update('bob', { name: 'Bob' });
      channelId = (await configureChannel(t, { type: 'push', provider: 'push_fcm', environments: [env.slug] })).id;
    });

    it('without enhanced security: a publishable key reads a user without a token', async () => {
      const knock = browserClient(t, env, 'alice');
      expect(await knock.user.get()).toMatchObject({ id: 'alice', name: 'Alice' });
    });

    it('a token enabled environment without a signing key answers missing_jwt_signing_key', async () => {
      await setEnhancedSecurity(t, env.slug, true);
      const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const knock = browserClient(t, env, 'alice', await userToken('alice', foreign));
      // The very next request sees the change (ADR 0136).
      const res = await call(knock, 'GET', '/v1/users/alice');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'missing_jwt_signing_key', message: expect.any(String), status: 401, type: 'authentication_error' });
      privateKey = (await createSigningKey(t, env.slug)).privateKey;
    });

    it('with enhanced security: no token is missing_user_token; a bad, expired, foreign or wrong-type token is refused', async () => {
      const none = browserClient(t, env, 'alice');
      expect(await call(none, 'GET', '/v1/users/alice')).toMatchObject({ status: 401, body: { code: 'missing_user_token' } });

      const expired = browserClient(t, env, 'alice', await userToken('alice', privateKey, -120));
      expect(await call(expired, 'GET', '/v1/users/alice')).toMatchObject({
        status: 401,
        body: { code: 'invalid_user_token', message: expect.stringContaining('expired') },
      });

      // Signed by the development environment's key: a token of another environment.
      const otherEnvKey = (await createSigningKey(t, 'development')).privateKey;
      const foreign = browserClient(t, env, 'alice', await userToken('alice', otherEnvKey));
      expect(await call(foreign, 'GET', '/v1/users/alice')).toMatchObject({
        status: 401,
        body: { code: 'invalid_user_token', message: expect.stringContaining('signature') },
      });

      const tampered = (await userToken('alice', privateKey)).split('.');
      tampered[1] = Buffer.from(JSON.stringify({ sub: 'bob', exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url');
      expect(await call(browserClient(t, env, 'bob', tampered.join('.')), 'GET', '/v1/users/bob')).toMatchObject({
        status: 401,
        body: { code: 'invalid_user_token' },
      });

      const hs256 = await new SignJWT({ sub: 'alice' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('shared-secret-shared-secret-1234'));
      expect(await call(browserClient(t, env, 'alice', hs256), 'GET', '/v1/users/alice')).toMatchObject({
        status: 401,
        body: { code: 'incorrect_token_type' },
      });
      expect(await call(browserClient(t, env, 'alice', env.publishableKey), 'GET', '/v1/users/alice')).toMatchObject({
        status: 401,
        body: { code: 'incorrect_token_type' },
      });

      const noExp = await new SignJWT({ sub: 'alice' })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .sign(await importPrivate(privateKey));
      expect(await call(browserClient(t, env, 'alice', noExp), 'GET', '/v1/users/alice')).toMatchObject({
        status: 401,
        body: { code: 'invalid_user_token' },
      });
    });

    it('a token for alice reads and changes alice only: user, preferences and channel data of bob are out of reach', async () => {
      const token = await userToken('alice', privateKey);
      const alice = browserClient(t, env, 'alice', token);
      expect(await alice.user.get()).toMatchObject({ id: 'alice' });
      expect(await alice.user.identify({ nickname: 'al' })).toMatchObject({ id: 'alice', nickname: 'al' });
      expect(await alice.user.setChannelData({ channelId, channelData: { tokens: ['a'] } })).toMatchObject({ data: { tokens: ['a'] } });
      expect(await alice.user.getChannelData({ channelId })).toMatchObject({ data: { tokens: ['a'] } });
      expect(await alice.preferences.set({ channel_types: { email: false } })).toMatchObject({ channel_types: { email: false } });

      // The same token presented for bob: every user-scoped call is refused and changes nothing.
      const asBob = browserClient(t, env, 'bob', token);
      const bobBefore = await t.knock(env.secretKey).users.get('bob');
      const bobPreferencesBefore = (await t.http('GET', '/v1/users/bob/preferences/default', { key: env.secretKey })).body;
      for (const [method, url, data] of [
        ['GET', '/v1/users/bob'],
        ['PUT', '/v1/users/bob', { name: 'Mallory' }],
        ['GET', '/v1/users/bob/preferences'],
        ['GET', '/v1/users/bob/preferences/default'],
        ['PUT', '/v1/users/bob/preferences/default', { channel_types: { email: false } }],
        ['DELETE', '/v1/users/bob/preferences/default'],
        ['GET', `/v1/users/bob/channel_data/${channelId}`],
        ['PUT', `/v1/users/bob/channel_data/${channelId}`, { data: { tokens: ['x'] } }],
        ['DELETE', `/v1/users/bob/channel_data/${channelId}`],
      ] as [string, string, unknown?][]) {
        expect([method, url, await call(asBob, method, url, data)]).toEqual([
          method,
          url,
          { status: 403, body: expect.objectContaining({ code: 'authorization' }) },
        ]);
      }
      expect(await t.knock(env.secretKey).users.get('bob')).toEqual(bobBefore);
      expect((await t.http('GET', '/v1/users/bob/preferences/default', { key: env.secretKey })).body).toEqual(bobPreferencesBefore);
      expect((await t.http('GET', `/v1/users/bob/channel_data/${channelId}`, { key: env.secretKey })).status).toBe(404);
      // The other header name is accepted too.
      expect((await t.http('GET', '/v1/users/alice', { key: env.publishableKey, headers: { 'x-service-user-token': token } })).status).toBe(
        200,
      );
      expect((await t.http('GET', '/v1/users/bob', { key: env.publishableKey, headers: { 'x-service-user-token': token } })).status).toBe(
        403,
      );
    });

    it('a secret-key route stays closed to publishable keys, token or not', async () => {
      const token = await userToken('alice', privateKey);
      expect(await t.http('GET', '/v1/users', { key: env.publishableKey, headers: { 'x-knock-user-token': token } })).toMatchObject({
        status: 403,
        body: { code: 'authorization' },
      });
    });

    it('rotating the signing key makes tokens signed with the old key invalid', async () => {
      const old = await userToken('alice', privateKey);
      const rotated = (await createSigningKey(t, env.slug, true)).privateKey;
      const stale = browserClient(t, env, 'alice', old);
      expect(await call(stale, 'GET', '/v1/users/alice')).toMatchObject({ status: 401, body: { code: 'invalid_user_token' } });
      expect(await browserClient(t, env, 'alice', await userToken('alice', rotated)).user.get()).toMatchObject({ id: 'alice' });
      privateKey = rotated;
    });

    it('turning enhanced security off lets tokenless calls in again, while a token still limits its holder to its user', async () => {
      await setEnhancedSecurity(t, env.slug, false);
      const none = browserClient(t, env, 'bob');
      expect(await call(none, 'GET', '/v1/users/bob')).toMatchObject({ status: 200, body: { id: 'bob' } });
      const token = await userToken('alice', privateKey);
      expect(await call(browserClient(t, env, 'bob', token), 'GET', '/v1/users/bob')).toMatchObject({ status: 403 });
    });
  });
});

async function importPrivate(pem: string) {
  const { importPKCS8 } = await import('jose');
  return importPKCS8(pem, 'RS256');
}

describe('browser access: feeds and messages of another user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('a token for alice never reads bob’s feed nor changes bob’s messages, one by one, in batches or channel-wide', async () => {
    const secret = t.knock();
    const channelId = (await t.sql("SELECT id FROM rm_channels WHERE key = 'in-app'"))[0].id as string;
    for (const id of ['f-alice', 'f-bob']) {
      await secret.users.update(id, { name: id });
      await secret.workflows.trigger('welcome', { recipients: [id], data: { message: 'hi' } });
    }
    const rows = await eventually(
      () => t.sql("SELECT id, recipient_id FROM rm_messages WHERE environment = 'development' AND recipient_id IN ('f-alice', 'f-bob')"),
      (r) => r.length === 2,
      15_000,
    );
    const bobMessage = rows.find((r: any) => r.recipient_id === 'f-bob').id as string;
    const aliceMessage = rows.find((r: any) => r.recipient_id === 'f-alice').id as string;
    const { privateKey } = await createSigningKey(t, 'development');
    const alice = browserClient(t, t.env, 'f-alice', await userToken('f-alice', privateKey));

    expect(await call(alice, 'GET', `/v1/users/f-alice/feeds/${channelId}`)).toMatchObject({
      status: 200,
      body: { meta: { unread_count: 1 } },
    });
    expect(await call(alice, 'GET', `/v1/users/f-bob/feeds/${channelId}`)).toMatchObject({ status: 403, body: { code: 'authorization' } });
    expect(await call(alice, 'GET', `/v1/users/f-bob/feeds/${channelId}/settings`)).toMatchObject({ status: 403 });
    expect(await call(alice, 'PUT', `/v1/messages/${bobMessage}/read`)).toMatchObject({ status: 404 });
    expect(await call(alice, 'PUT', `/v1/messages/${bobMessage}/archived`)).toMatchObject({ status: 404 });
    expect(await call(alice, 'POST', '/v1/messages/batch/read', { message_ids: [bobMessage, aliceMessage] })).toMatchObject({
      status: 200,
      body: [expect.objectContaining({ id: aliceMessage })],
    });
    expect(await call(alice, 'POST', `/v1/channels/${channelId}/messages/bulk/archive`, { user_ids: ['f-bob'] })).toMatchObject({
      status: 403,
    });
    expect(
      await call(alice, 'POST', `/v1/channels/${channelId}/messages/bulk/archive`, { user_ids: ['f-alice'], recipient_ids: ['f-bob'] }),
    ).toMatchObject({ status: 403 });
    // Naming nobody, the channel-wide change is still only alice's.
    expect(await call(alice, 'POST', `/v1/channels/${channelId}/messages/bulk/seen`, {})).toMatchObject({ status: 200 });
    // Without a token, a publishable key must name whose messages it changes.
    expect(await call(browserClient(t, t.env, 'f-alice'), 'POST', `/v1/channels/${channelId}/messages/bulk/seen`, {})).toMatchObject({
      status: 403,
    });
    await eventually(
      () =>
        t.sql('SELECT recipient_id, seen_at IS NOT NULL AS seen FROM rm_messages WHERE id = ANY($1::uuid[]) ORDER BY recipient_id', [
          [aliceMessage, bobMessage],
        ]),
      (r) => r[0].seen === true,
      15_000,
    );
    const bob = (await t.sql('SELECT read_at, seen_at, archived_at FROM rm_messages WHERE id = $1', [bobMessage]))[0];
    expect(bob).toEqual({ read_at: null, seen_at: null, archived_at: null });
  });
});

describe('browser access: rate limits per user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_ENABLED: 'true' } });
  });
  afterAll(async () => t?.close());

  it('a publishable key spends one budget per user (token or named), so one user cannot exhaust another’s', async () => {
    const env = await t.newEnvironment();
    for (const id of ['alice', 'bob', 'carol', 'dave']) await t.knock(env.secretKey).users.update(id, { name: id });
    const { privateKey } = await createSigningKey(t, env.slug);
    const channelId = (await t.sql("SELECT id FROM rm_channels WHERE key = 'in-app'"))[0].id;
    // The feed is tier 2: five requests a second.
    const burst = async (user: string, headers: Record<string, string>) =>
      Promise.all(
        Array.from({ length: 8 }, () => t.http('GET', `/v1/users/${user}/feeds/${channelId}`, { key: env.publishableKey, headers })),
      );

    const alice = await burst('alice', { 'x-knock-user-token': await userToken('alice', privateKey) });
    const limited = alice.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(3);
    expect(alice.filter((r) => r.status === 200).length).toBeLessThanOrEqual(5);
    expect(limited[0].body).toMatchObject({ code: 'rate_limit_exceeded', status: 429, type: 'rate_limit_error' });
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const bob = await t.http('GET', `/v1/users/bob/feeds/${channelId}`, {
      key: env.publishableKey,
      headers: { 'x-knock-user-token': await userToken('bob', privateKey) },
    });
    expect(bob.status).toBe(200);

    // Without a token (enhanced security off) the user named in the path owns the budget.
    expect((await burst('carol', {})).filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(3);
    expect((await t.http('GET', `/v1/users/dave/feeds/${channelId}`, { key: env.publishableKey })).status).toBe(200);
  });
});
