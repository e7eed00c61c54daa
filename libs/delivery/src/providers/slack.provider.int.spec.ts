import { json, leakedSecrets, startHttpPeer, type Peer, type PeerResponse } from '@notify/testing/peers';
import { localPeersOutbound } from '@notify/testing/outbound';
import type { DeliveryFailure, DeliveryRequest, DeliverySuccess, ProviderConfig } from '../types';
import { SlackWebhookProvider } from './slack-webhook.provider';
import { SlackProvider } from './slack.provider';

// The peers listen on 127.0.0.1: these tests allow-list loopback, as a deployment would its own network.
const outbound = localPeersOutbound();
afterAll(() => outbound.close());

const connectionToken = 'xoxb-1111-2222-connectiontoken';
const channelDataToken = 'xoxb-3333-4444-channeldatatoken';
const botToken = 'xoxb-5555-6666-settingsbottoken';

const request = (channelData: Record<string, unknown>, overrides: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  messageId: 'msg-c1',
  environment: 'development',
  attempt: 1,
  idempotencyKey: 'msg-c1',
  recipient: { id: 'ada' },
  channelData,
  content: { type: 'chat', markdown_body: '*Deploy* finished', summary: 'Deploy finished' },
  ...overrides,
});

describe('SlackProvider against a local Slack Web API', () => {
  const provider = new SlackProvider({ outbound });
  let peer: Peer;
  let config: ProviderConfig;
  let answerFor: (channel: string, token: string) => PeerResponse;
  const channelData = {
    token: { access_token: channelDataToken },
    connections: [
      { channel_id: 'C0123', access_token: connectionToken },
      { user_id: 'U0456' },
      { incoming_webhook: { url: 'http://127.0.0.1:1/ignored' } },
    ],
  };

  beforeAll(async () => {
    peer = await startHttpPeer(() => ({ status: 500, json: {} }));
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.length = 0;
    answerFor = (channel) => ({
      status: 200,
      json: {
        ok: true,
        channel,
        ts: channel === 'C0123' ? '1503435956.000247' : '1503435957.000100',
        message: { text: '*Deploy* finished' },
      },
    });
    peer.respond = (req) => answerFor(json(req).channel, req.headers.authorization.replace('Bearer ', ''));
    config = { provider: 'slack', channelType: 'chat', baseUrl: peer.url, settings: {} };
  });

  it('posts to every channel and user connection with that connection’s token or the channel data’s', async () => {
    const result = (await provider.send(request(channelData), config)) as DeliverySuccess;

    expect(result.outcome).toBe('sent');
    expect(peer.requests).toHaveLength(2);
    const byChannel = Object.fromEntries(peer.requests.map((r) => [json(r).channel, r]));
    expect(byChannel.C0123.url).toBe('/chat.postMessage');
    expect(byChannel.C0123.headers.authorization).toBe(`Bearer ${connectionToken}`);
    expect(byChannel.C0123.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json(byChannel.C0123)).toEqual({ channel: 'C0123', text: '*Deploy* finished', mrkdwn: true });
    expect(byChannel.U0456.headers.authorization).toBe(`Bearer ${channelDataToken}`);
    expect(result.targets).toEqual([
      { target: 'channel:C0123', outcome: 'sent', providerMessageId: '1503435956.000247' },
      { target: 'channel:U0456', outcome: 'sent', providerMessageId: '1503435957.000100' },
    ]);
  });

  it('falls back to the bot_token setting, and sends a JSON template with its summary as text', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Deploy* finished' } }];
    const content = { type: 'chat' as const, summary: 'Deploy finished', json_body: { blocks } };
    const result = await provider.send(request({ connections: [{ channel_id: 'C0123' }] }, { content }), {
      ...config,
      settings: { bot_token: botToken },
    });
    expect(result).toMatchObject({ outcome: 'sent', providerMessageId: '1503435956.000247' });
    expect(peer.requests[0].headers.authorization).toBe(`Bearer ${botToken}`);
    expect(json(peer.requests[0])).toEqual({ channel: 'C0123', text: 'Deploy finished', blocks });
  });

  it('never logs a token', async () => {
    const result = await provider.send(request(channelData), config);
    expect(result.logs).toHaveLength(2);
    expect(result.logs.every((l) => l.request.headers.authorization === '[REDACTED]')).toBe(true);
    expect(leakedSecrets(result, [connectionToken, channelDataToken])).toEqual([]);
  });

  it('reports the channels that failed next to those that got the message', async () => {
    answerFor = (channel) =>
      channel === 'U0456'
        ? { status: 200, json: { ok: false, error: 'not_in_channel' } }
        : { status: 200, json: { ok: true, channel, ts: '1.2' } };
    const result = (await provider.send(request(channelData), config)) as DeliverySuccess;
    expect(result.outcome).toBe('sent');
    expect(result.targets?.[1]).toEqual({
      target: 'channel:U0456',
      outcome: 'failed',
      retryable: false,
      code: 'slack_not_in_channel',
      reason: 'Slack error not_in_channel',
    });
  });

  it.each([
    [{ status: 200, json: { ok: false, error: 'channel_not_found' } }, false, 'slack_channel_not_found', undefined],
    [{ status: 200, json: { ok: false, error: 'invalid_auth' } }, false, 'slack_invalid_auth', undefined],
    [{ status: 200, json: { ok: false, error: 'msg_too_long' } }, false, 'slack_msg_too_long', undefined],
    [{ status: 200, json: { ok: false, error: 'internal_error' } }, true, 'slack_internal_error', undefined],
    [{ status: 200, json: { ok: false, error: 'service_unavailable' } }, true, 'slack_service_unavailable', undefined],
    [{ status: 429, headers: { 'retry-after': '30' }, json: { ok: false, error: 'ratelimited' } }, true, 'http_429', 30_000],
    [{ status: 503, text: 'upstream connect error' }, true, 'http_503', undefined],
  ] as const)('classifies %j', async (answer, retryable, code, retryAfterMs) => {
    answerFor = () => answer as PeerResponse;
    const result = (await provider.send(
      request({ connections: [{ channel_id: 'C0123', access_token: connectionToken }] }),
      config,
    )) as DeliveryFailure;
    expect(result).toMatchObject({ outcome: 'failed', retryable, code });
    expect(result.retryAfterMs).toBe(retryAfterMs);
  });

  it('fails a connection permanently when no token is to be found', async () => {
    const result = await provider.send(request({ connections: [{ channel_id: 'C0123' }] }), config);
    expect(result).toMatchObject({ outcome: 'failed', retryable: false, code: 'missing_slack_token' });
    expect(peer.requests).toHaveLength(0);
  });

  it('times out on an API that never answers (retryable)', async () => {
    peer.respond = () => 'hang';
    const result = await provider.send(request({ connections: [{ channel_id: 'C0123', access_token: connectionToken }] }), {
      ...config,
      timeoutMs: 200,
    });
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'timeout' });
  });
});

describe('SlackWebhookProvider against a local incoming-webhook endpoint', () => {
  const provider = new SlackWebhookProvider({ outbound });
  const secretPath = 'xXsecretXxWebhookTokenXx42';
  let peer: Peer;
  let url: string;
  const config: ProviderConfig = { provider: 'slack-webhook', channelType: 'chat', settings: {} };

  beforeAll(async () => {
    peer = await startHttpPeer(() => ({ status: 200, text: 'ok' }));
    url = `${peer.url}/services/T000ABCD/B000EFGH/${secretPath}`;
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.length = 0;
    peer.respond = () => ({ status: 200, text: 'ok' });
  });

  it('posts the message to each incoming webhook of the channel data', async () => {
    const result = (await provider.send(
      request({ connections: [{ incoming_webhook: { url } }, { channel_id: 'C1', access_token: 'xoxb-ignored-here' }] }),
      config,
    )) as DeliverySuccess;
    expect(result.outcome).toBe('sent');
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0]).toMatchObject({
      method: 'POST',
      url: `/services/T000ABCD/B000EFGH/${secretPath}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(json(peer.requests[0])).toEqual({ text: '*Deploy* finished', mrkdwn: true });
  });

  it('treats the URL as the credential: its secret segment never reaches the logs', async () => {
    const result = (await provider.send(request({ connections: [{ incoming_webhook: { url } }] }), config)) as DeliverySuccess;
    expect(result.logs[0].request.url).toBe(`${peer.url}/services/T000ABCD/B000EFGH/[REDACTED]`);
    expect(result.targets?.[0].target).toBe(`webhook:${peer.url}/services/T000ABCD/B000EFGH/[REDACTED]`);
    expect(leakedSecrets(result, [secretPath])).toEqual([]);
  });

  it.each([
    [400, 'invalid_payload', {}, false, undefined],
    [403, 'action_prohibited', {}, false, undefined],
    [404, 'no_service', {}, false, undefined],
    [410, 'channel_is_archived', {}, false, undefined],
    [429, 'rate_limited', { 'retry-after': '3' }, true, 3000],
    [500, 'rollup_error', {}, true, undefined],
  ])('classifies HTTP %i %s', async (status, text, headers, retryable, retryAfterMs) => {
    peer.respond = () => ({ status, headers, text });
    const result = (await provider.send(request({ connections: [{ incoming_webhook: { url } }] }), config)) as DeliveryFailure;
    expect(result).toMatchObject({ outcome: 'failed', retryable, code: `slack_${text}`, reason: `HTTP ${status}: ${text}` });
    expect(result.retryAfterMs).toBe(retryAfterMs);
    expect(leakedSecrets(result, [secretPath])).toEqual([]);
  });
});
