import { generateKeyPairSync } from 'node:crypto';
import { closedPort, json, leakedSecrets, startHttp2Peer, type Peer, type PeerResponse, type RecordedRequest } from '@notify/testing/peers';
import { localPeersOutbound } from '@notify/testing/outbound';
import { apnsProviderTokenProblem } from '@notify/testing/provider-peers';
import type { DeliveryFailure, DeliveryRequest, DeliverySuccess, ProviderConfig } from '../types';
import { ApnsProvider, stableUuid } from './apns.provider';

// The peers listen on 127.0.0.1: these tests allow-list loopback, as a deployment would its own network.
const outbound = localPeersOutbound();
afterAll(() => outbound.close());

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const p8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const keyId = 'ABC123DEFG';
const teamId = 'DEF123GHIJ';

const request = (overrides: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  messageId: 'msg-a1',
  environment: 'production',
  attempt: 1,
  idempotencyKey: 'msg-a1',
  recipient: { id: 'ada' },
  channelData: { tokens: ['aaaa1111'], devices: [{ token: 'bbbb2222' }] },
  content: { type: 'push', title: 'Order shipped', body: 'It is on its way', data: { order_id: 'o-7' } },
  ...overrides,
});

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('ApnsProvider against a local HTTP/2 APNs peer', () => {
  let peer: Peer;
  let now: number;
  let provider: ApnsProvider;
  let config: ProviderConfig;
  let answerFor: (token: string) => PeerResponse;

  beforeAll(async () => {
    peer = await startHttp2Peer(() => ({ status: 500, json: {} }));
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.length = 0;
    now = Date.now();
    provider = new ApnsProvider({ now: () => now, outbound });
    answerFor = () => ({ status: 200, text: '' });
    peer.respond = (req) => {
      const problem = apnsProviderTokenProblem(req, { publicKey, keyId, teamId });
      if (problem) return { status: 403, json: { reason: problem } };
      const answer = answerFor(req.url.replace('/3/device/', ''));
      return { ...answer, headers: { 'apns-id': req.headers['apns-id'], ...answer.headers } };
    };
    config = {
      provider: 'apns',
      channelType: 'push',
      baseUrl: peer.url,
      settings: { key_id: keyId, team_id: teamId, private_key: p8, bundle_id: 'com.example.shop' },
    };
  });

  it('posts an alert to each device over HTTP/2 with a valid ES256 provider token', async () => {
    const result = (await provider.send(request(), config)) as DeliverySuccess;

    expect(result.outcome).toBe('sent');
    expect(peer.requests.map((r) => r.url).sort()).toEqual(['/3/device/aaaa1111', '/3/device/bbbb2222']);
    for (const sent of peer.requests) {
      expect(sent.method).toBe('POST');
      expect(sent.headers).toMatchObject({
        'apns-topic': 'com.example.shop',
        'apns-push-type': 'alert',
        'apns-priority': '10',
        'content-type': 'application/json',
      });
      expect(json(sent)).toEqual({
        aps: { alert: { title: 'Order shipped', body: 'It is on its way' }, sound: 'default' },
        order_id: 'o-7',
        notify_message_id: 'msg-a1',
      });
    }
    const idFor = (token: string) => peer.requests.find((r) => r.url.endsWith(token))!.headers['apns-id'];
    expect(result.targets).toEqual([
      { target: 'token:aaaa1111', outcome: 'sent', providerMessageId: idFor('aaaa1111') },
      { target: 'token:bbbb2222', outcome: 'sent', providerMessageId: idFor('bbbb2222') },
    ]);
  });

  it('sends the same apns-id on every attempt to one device, and another to each device', async () => {
    await provider.send(request({ attempt: 1 }), config);
    await provider.send(request({ attempt: 2 }), config);
    const ids = (token: string) => peer.requests.filter((r) => r.url.endsWith(token)).map((r) => r.headers['apns-id']);
    expect(ids('aaaa1111')).toEqual([stableUuid('msg-a1|aaaa1111'), stableUuid('msg-a1|aaaa1111')]);
    expect(ids('bbbb2222')[0]).not.toBe(ids('aaaa1111')[0]);
  });

  it('reuses the provider token for 50 minutes, then signs a new one', async () => {
    const tokenOf = (r: RecordedRequest) => r.headers.authorization;
    await provider.send(request({ channelData: { tokens: ['aaaa1111'] } }), config);
    now += 49 * 60_000;
    await provider.send(request({ channelData: { tokens: ['aaaa1111'] } }), config);
    now += 2 * 60_000;
    await provider.send(request({ channelData: { tokens: ['aaaa1111'] } }), config);
    const [first, second, third] = peer.requests.map(tokenOf);
    expect(second).toBe(first);
    expect(third).not.toBe(first);
    expect(decode(third.split(' ')[1].split('.')[1]).iat).toBe(Math.floor(now / 1000));
  });

  it('keeps the signing key and the provider token out of the logs', async () => {
    const result = await provider.send(request(), config);
    const jwt = peer.requests[0].headers.authorization.split(' ')[1];
    expect(result.logs).toHaveLength(2);
    expect(result.logs[0]).toMatchObject({
      request: { method: 'POST', headers: { authorization: '[REDACTED]', 'apns-topic': 'com.example.shop' } },
      response: { status: 200 },
    });
    expect(leakedSecrets(result, [jwt, p8, ...p8.split('\n').filter((l) => l.length > 20)])).toEqual([]);
  });

  it('reports a 410 Unregistered device as a permanent failure for that token', async () => {
    answerFor = (token) =>
      token === 'bbbb2222' ? { status: 410, json: { reason: 'Unregistered', timestamp: 1767225600000 } } : { status: 200, text: '' };
    const result = (await provider.send(request(), config)) as DeliverySuccess;
    expect(result.outcome).toBe('sent');
    expect(result.invalidTokens).toEqual(['bbbb2222']);
    expect(result.targets?.[1]).toEqual({
      target: 'token:bbbb2222',
      outcome: 'failed',
      retryable: false,
      code: 'apns_unregistered',
      reason: 'HTTP 410: Unregistered',
    });
  });

  it.each([
    // A token APNs will never accept again is dropped, and the push (its only token) bounces.
    [400, 'BadDeviceToken', {}, false, undefined, true],
    [400, 'DeviceTokenNotForTopic', {}, false, undefined, true],
    [403, 'InvalidProviderToken', {}, false, undefined, false],
    [413, 'PayloadTooLarge', {}, false, undefined, false],
    [429, 'TooManyRequests', { 'retry-after': '10' }, true, 10_000, false],
    [500, 'InternalServerError', {}, true, undefined, false],
    [503, 'ServiceUnavailable', {}, true, undefined, false],
  ])('classifies HTTP %i %s', async (status, reason, headers, retryable, retryAfterMs, gone) => {
    answerFor = () => ({ status, headers, json: { reason } });
    const result = (await provider.send(request({ channelData: { tokens: ['aaaa1111'] } }), config)) as DeliveryFailure;
    expect(result).toMatchObject({
      outcome: 'failed',
      retryable,
      code: `apns_${reason.toLowerCase()}`,
      reason: `HTTP ${status}: ${reason}`,
    });
    expect(result.retryAfterMs).toBe(retryAfterMs);
    expect(result.invalidTokens).toEqual(gone ? ['aaaa1111'] : undefined);
    expect(result.bounced).toBe(gone ? true : undefined);
  });

  it('retries ExpiredProviderToken with a newly signed token', async () => {
    answerFor = () => ({ status: 403, json: { reason: 'ExpiredProviderToken' } });
    const expired = await provider.send(request({ channelData: { tokens: ['aaaa1111'] } }), config);
    expect(expired).toMatchObject({ outcome: 'failed', retryable: true, code: 'apns_expiredprovidertoken' });

    answerFor = () => ({ status: 200, text: '' });
    now += 1000;
    const retried = await provider.send(request({ channelData: { tokens: ['aaaa1111'] } }), config);
    expect(retried.outcome).toBe('sent');
    expect(peer.requests[1].headers.authorization).not.toBe(peer.requests[0].headers.authorization);
  });

  it('sends a silent push as a background notification', async () => {
    await provider.send(
      request({ channelData: { tokens: ['aaaa1111'] }, content: { type: 'push', title: 't', body: 'b', silent: true, data: { sync: 1 } } }),
      config,
    );
    expect(peer.requests[0].headers).toMatchObject({ 'apns-push-type': 'background', 'apns-priority': '5' });
    expect(json(peer.requests[0])).toEqual({ sync: 1, notify_message_id: 'msg-a1', aps: { 'content-available': 1 } });
  });

  it('times out on a peer that never answers (retryable)', async () => {
    peer.respond = () => 'hang';
    const result = await provider.send(request({ channelData: { tokens: ['aaaa1111'] } }), { ...config, timeoutMs: 300 });
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'timeout' });
  });

  it('fails retryably when APNs cannot be reached', async () => {
    const result = await provider.send(request({ channelData: { tokens: ['aaaa1111'] } }), {
      ...config,
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
    });
    expect(result).toMatchObject({
      outcome: 'failed',
      retryable: true,
      code: 'network_error',
      reason: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
