import { generateKeyPairSync } from 'node:crypto';
import { form, json, leakedSecrets, startHttpPeer, type Peer, type PeerResponse } from '@notify/testing/peers';
import { localPeersOutbound } from '@notify/testing/outbound';
import { fcmError, googleTokenEndpoint } from '@notify/testing/provider-peers';
import type { DeliveryFailure, DeliveryRequest, DeliverySuccess, ProviderConfig } from '../types';
import { FcmProvider } from './fcm.provider';

// The peers listen on 127.0.0.1: these tests allow-list loopback, as a deployment would its own network.
const outbound = localPeersOutbound();
afterAll(() => outbound.close());

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const otherKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const clientEmail = 'notify-push@demo-project.iam.gserviceaccount.com';

const request = (overrides: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  messageId: 'msg-p1',
  environment: 'production',
  attempt: 1,
  idempotencyKey: 'msg-p1',
  recipient: { id: 'ada' },
  channelData: { tokens: ['device-token-A'], devices: [{ token: 'device-token-B', locale: 'en' }] },
  content: { type: 'push', title: 'New comment', body: 'Charles replied', data: { comment_id: 'c-9', count: 3 } },
  ...overrides,
});

describe('FcmProvider against local OAuth2 and FCM v1 peers', () => {
  let peer: Peer;
  let tokenUrl: string;
  let issued: string[];
  let now: number;
  let provider: FcmProvider;
  let config: ProviderConfig;
  /** What the FCM endpoint answers for a device token; the default is success. */
  let answerFor: (token: string) => PeerResponse;

  const tokenRequests = () => peer.requests.filter((r) => r.url === '/token');
  const sends = () => peer.requests.filter((r) => r.url !== '/token');

  beforeAll(async () => {
    peer = await startHttpPeer(() => ({ status: 500, json: {} }));
    tokenUrl = `${peer.url}/token`;
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.length = 0;
    issued = [];
    now = Date.now();
    provider = new FcmProvider({ now: () => now, outbound });
    answerFor = () => ({ status: 200, json: { name: `projects/demo-project/messages/0:${Math.floor(Math.random() * 1e12)}` } });
    peer.respond = (req) => {
      if (req.url === '/token') return googleTokenEndpoint(req, { tokenUrl, publicKey, clientEmail, keyId: 'key-1', issued, nowMs: now });
      if (req.headers.authorization !== `Bearer ${issued.at(-1)}`)
        return fcmError(401, 'UNAUTHENTICATED', undefined, 'Request had invalid authentication credentials.');
      return answerFor(json(req).message.token);
    };
    config = {
      provider: 'fcm',
      channelType: 'push',
      baseUrl: peer.url,
      settings: {
        service_account: {
          type: 'service_account',
          project_id: 'demo-project',
          private_key_id: 'key-1',
          private_key: privateKeyPem,
          client_email: clientEmail,
          token_uri: tokenUrl,
        },
      },
    };
  });

  it('exchanges a signed JWT for an access token, then sends one message per device', async () => {
    const result = (await provider.send(request(), config)) as DeliverySuccess;

    expect(result.outcome).toBe('sent');
    expect(tokenRequests()).toHaveLength(1);
    expect(sends()).toHaveLength(2);
    for (const sent of sends()) {
      expect(sent.method).toBe('POST');
      expect(sent.url).toBe('/v1/projects/demo-project/messages:send');
      expect(sent.headers.authorization).toBe(`Bearer ${issued[0]}`);
    }
    const bodies = sends()
      .map((r) => json(r).message)
      .sort((a, b) => a.token.localeCompare(b.token));
    expect(bodies).toEqual(
      ['device-token-A', 'device-token-B'].map((token) => ({
        token,
        notification: { title: 'New comment', body: 'Charles replied' },
        data: { comment_id: 'c-9', count: '3', notify_message_id: 'msg-p1' },
      })),
    );
    expect(result.targets?.map((t) => [t.target, t.outcome])).toEqual([
      ['token:device-token-A', 'sent'],
      ['token:device-token-B', 'sent'],
    ]);
    expect(result.targets?.every((t) => t.providerMessageId?.startsWith('projects/demo-project/messages/'))).toBe(true);
  });

  it('keeps secrets out of the logs: private key, signed assertion and access token', async () => {
    const result = await provider.send(request(), config);
    expect(result.logs).toHaveLength(3);
    const assertion = form(tokenRequests()[0]).assertion;
    const keyLines = privateKeyPem.split('\n').filter((l) => l && !l.startsWith('-----'));
    expect(leakedSecrets(result, [privateKeyPem, assertion, issued[0], ...keyLines])).toEqual([]);
    expect(result.logs[0]).toMatchObject({
      request: { url: tokenUrl, body: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: '[REDACTED]' } },
      response: { status: 200, body: { access_token: '[REDACTED]', expires_in: 3599 } },
    });
  });

  it('reuses the access token until a minute before it expires', async () => {
    await provider.send(request(), config);
    await provider.send(request(), config);
    expect(tokenRequests()).toHaveLength(1);

    now += 3538_000; // expires_in 3599 s, less the minute's margin: still good
    await provider.send(request(), config);
    expect(tokenRequests()).toHaveLength(1);

    now += 2_000;
    await provider.send(request(), config);
    expect(tokenRequests()).toHaveLength(2);
    expect(
      sends()
        .slice(-2)
        .every((r) => r.headers.authorization === `Bearer ${issued[1]}`),
    ).toBe(true);
  });

  it('reads a service account given as a JSON string and a project_id override', async () => {
    const settings = { service_account: JSON.stringify(config.settings.service_account), project_id: 'other-project' };
    const result = await provider.send(request(), { ...config, settings });
    expect(result.outcome).toBe('sent');
    expect(sends()[0].url).toBe('/v1/projects/other-project/messages:send');
    expect(
      leakedSecrets(
        result,
        privateKeyPem.split('\n').filter((l) => l.length > 20),
      ),
    ).toEqual([]);
  });

  it('fails permanently when the token endpoint refuses the signature, and sends nothing', async () => {
    const settings = { service_account: { ...(config.settings.service_account as object), private_key: otherKeyPem } };
    const result = await provider.send(request(), { ...config, settings });
    expect(result).toMatchObject({
      outcome: 'failed',
      retryable: false,
      code: 'oauth_invalid_grant',
      reason: expect.stringContaining('Invalid JWT Signature.'),
    });
    expect(sends()).toHaveLength(0);
    expect(leakedSecrets(result, [otherKeyPem, ...otherKeyPem.split('\n').filter((l) => l.length > 20)])).toEqual([]);
  });

  it('retries later when the token endpoint is unavailable', async () => {
    peer.respond = (req) =>
      req.url === '/token' ? { status: 503, headers: { 'retry-after': '5' }, text: 'unavailable' } : { status: 500, json: {} };
    const result = await provider.send(request(), config);
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'http_503', retryAfterMs: 5000 });
  });

  it('sends to the live device and reports an UNREGISTERED token as a permanent failure for that token', async () => {
    answerFor = (token) =>
      token === 'device-token-B'
        ? fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.')
        : { status: 200, json: { name: 'projects/demo-project/messages/1' } };
    const result = (await provider.send(request(), config)) as DeliverySuccess;
    expect(result.outcome).toBe('sent');
    expect(result.providerMessageId).toBe('projects/demo-project/messages/1');
    expect(result.invalidTokens).toEqual(['device-token-B']);
    expect(result.targets).toEqual([
      { target: 'token:device-token-A', outcome: 'sent', providerMessageId: 'projects/demo-project/messages/1' },
      {
        target: 'token:device-token-B',
        outcome: 'failed',
        retryable: false,
        code: 'fcm_unregistered',
        reason: 'HTTP 404: UNREGISTERED: Requested entity was not found.',
      },
    ]);
  });

  it('fails permanently when every token is unregistered', async () => {
    answerFor = () => fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.');
    const result = (await provider.send(request(), config)) as DeliveryFailure;
    expect(result).toMatchObject({
      outcome: 'failed',
      retryable: false,
      code: 'fcm_unregistered',
      invalidTokens: ['device-token-A', 'device-token-B'],
      bounced: true,
    });
    expect(result.reason).toBe('all 2 targets failed; first: HTTP 404: UNREGISTERED: Requested entity was not found.');
  });

  it.each([
    [429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED', { 'retry-after': '60' }, true, 'fcm_quota_exceeded', 60_000],
    [503, 'UNAVAILABLE', 'UNAVAILABLE', {}, true, 'fcm_unavailable', undefined],
    [500, 'INTERNAL', 'INTERNAL', {}, true, 'fcm_internal', undefined],
    [400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', {}, false, 'fcm_invalid_argument', undefined],
    // The token belongs to another project: never deliverable here (dropped, asserted below).
    [403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH', {}, false, 'fcm_sender_id_mismatch', undefined],
    [401, 'UNAUTHENTICATED', 'THIRD_PARTY_AUTH_ERROR', {}, false, 'fcm_third_party_auth_error', undefined],
  ])('classifies HTTP %i %s/%s', async (status, grpcStatus, errorCode, headers, retryable, code, retryAfterMs) => {
    answerFor = () => ({ ...fcmError(status, grpcStatus, errorCode, 'error'), headers });
    const result = await provider.send(request({ channelData: { tokens: ['device-token-A'] } }), config);
    expect(result).toMatchObject({ outcome: 'failed', retryable, code });
    expect((result as DeliveryFailure).retryAfterMs).toBe(retryAfterMs);
    const gone = code === 'fcm_sender_id_mismatch';
    expect((result as DeliveryFailure).invalidTokens).toEqual(gone ? ['device-token-A'] : undefined);
    expect((result as DeliveryFailure).bounced).toBe(gone ? true : undefined);
  });

  it('drops a refused access token so the retry mints a new one', async () => {
    await provider.send(request(), config);
    issued.push('ya29.revoked-elsewhere');
    const refused = await provider.send(request({ channelData: { tokens: ['device-token-A'] } }), config);
    expect(refused).toMatchObject({ outcome: 'failed', retryable: true, code: 'fcm_unauthenticated' });

    const retried = await provider.send(request({ channelData: { tokens: ['device-token-A'] } }), config);
    expect(retried.outcome).toBe('sent');
    expect(tokenRequests()).toHaveLength(2);
  });

  it('sends a silent push as data only, flagged for background delivery on iOS', async () => {
    await provider.send(
      request({
        channelData: { tokens: ['device-token-A'] },
        content: { type: 'push', title: 't', body: 'b', data: { sync: true }, silent: true },
      }),
      config,
    );
    expect(json(sends()[0]).message).toEqual({
      token: 'device-token-A',
      data: { sync: 'true', notify_message_id: 'msg-p1' },
      android: { priority: 'normal' },
      apns: { headers: { 'apns-push-type': 'background', 'apns-priority': '5' }, payload: { aps: { 'content-available': 1 } } },
    });
  });

  it('fails permanently without push tokens, before any request', async () => {
    const result = await provider.send(request({ channelData: { tokens: [] } }), config);
    expect(result).toMatchObject({ outcome: 'failed', retryable: false, code: 'missing_push_tokens' });
    expect(peer.requests).toHaveLength(0);
  });

  it('times out on an FCM endpoint that hangs (retryable)', async () => {
    peer.respond = (req) =>
      req.url === '/token' ? googleTokenEndpoint(req, { tokenUrl, publicKey, clientEmail, keyId: 'key-1', issued, nowMs: now }) : 'hang';
    const result = await provider.send(request({ channelData: { tokens: ['device-token-A'] } }), { ...config, timeoutMs: 300 });
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'timeout' });
  });
});
