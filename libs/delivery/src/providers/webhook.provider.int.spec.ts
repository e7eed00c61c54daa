import { closedPort, leakedSecrets, startHttpPeer, type Peer } from '@notify/testing/peers';
import { localPeersOutbound } from '@notify/testing/outbound';
import { webhookReceiverAccepts } from '@notify/testing/provider-peers';
import type { DeliveryRequest, ProviderConfig, WebhookContent } from '../types';
import { verifyWebhookSignature } from '../webhook-signature';
import { WebhookProvider } from './webhook.provider';

// The peers listen on 127.0.0.1: these tests allow-list loopback, as a deployment would its own network.
const outbound = localPeersOutbound();
afterAll(() => outbound.close());

const signingSecret = 'whsec_5f4dcc3b5aa765d61d8327deb882cf99';
const customerApiKey = 'cust-api-key-0c1d2e3f';

const content = (overrides: Partial<WebhookContent> = {}): WebhookContent => ({
  type: 'http',
  method: 'post',
  url: '',
  headers: { 'X-Api-Key': customerApiKey, 'X-Tenant': 'acme' },
  query_params: { source: 'notify' },
  body: { event: 'comment.created', comment: { id: 'c-1', text: 'Ünïcödé ok' } },
  ...overrides,
});

describe('WebhookProvider against a local receiver', () => {
  let peer: Peer;
  let now: number;
  let provider: WebhookProvider;
  let config: ProviderConfig;

  const request = (c: Partial<WebhookContent> = {}, overrides: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
    messageId: 'msg-w1',
    environment: 'production',
    attempt: 1,
    idempotencyKey: 'msg-w1',
    recipient: { id: 'ada' },
    content: content({ url: `${peer.url}/hooks/notify`, ...c }),
    ...overrides,
  });

  beforeAll(async () => {
    peer = await startHttpPeer(() => ({ status: 200, text: 'ok' }));
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.length = 0;
    peer.respond = () => ({ status: 200, text: 'ok' });
    now = Date.parse('2026-03-01T12:00:00Z');
    provider = new WebhookProvider({ now: () => now, outbound });
    config = { provider: 'webhook', channelType: 'http', settings: { signing_secret: signingSecret } };
  });

  it('sends the rendered request, signed so that a receiver can verify it', async () => {
    const result = await provider.send(request(), config);

    expect(result).toEqual({ outcome: 'delivered', logs: expect.any(Array) });
    const [received] = peer.requests;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/hooks/notify?source=notify');
    expect(JSON.parse(received.body)).toEqual({ event: 'comment.created', comment: { id: 'c-1', text: 'Ünïcödé ok' } });
    expect(received.headers).toMatchObject({
      'content-type': 'application/json',
      'x-api-key': customerApiKey,
      'x-tenant': 'acme',
      'x-notify-message-id': 'msg-w1',
      'x-notify-idempotency-key': 'msg-w1',
      'x-notify-attempt': '1',
      'user-agent': 'notify-webhooks/1',
    });
    expect(received.headers['x-notify-signature']).toMatch(/^t=1772366400,v1=[0-9a-f]{64}$/);
    expect(webhookReceiverAccepts(received, signingSecret, now / 1000 + 5)).toBe(true);
    expect(
      verifyWebhookSignature(received.headers['x-notify-signature'], received.body, signingSecret, { nowSeconds: now / 1000 }),
    ).toEqual({ valid: true, timestamp: 1772366400 });
  });

  it('produces signatures a receiver rejects once the body, the secret or the clock is off', async () => {
    await provider.send(request(), config);
    const [received] = peer.requests;
    expect(webhookReceiverAccepts({ ...received, body: received.body.replace('c-1', 'c-2') }, signingSecret, now / 1000)).toBe(false);
    expect(webhookReceiverAccepts(received, 'whsec_another_secret', now / 1000)).toBe(false);
    expect(webhookReceiverAccepts(received, signingSecret, now / 1000 + 301)).toBe(false);
  });

  it('keeps the idempotency key and re-signs with a fresh timestamp on a retry', async () => {
    await provider.send(request({}, { attempt: 1 }), config);
    now += 45_000;
    await provider.send(request({}, { attempt: 2 }), config);
    const [first, second] = peer.requests;
    expect(second.headers['x-notify-idempotency-key']).toBe(first.headers['x-notify-idempotency-key']);
    expect(second.headers['x-notify-attempt']).toBe('2');
    expect(second.headers['x-notify-signature']).not.toBe(first.headers['x-notify-signature']);
    expect(webhookReceiverAccepts(second, signingSecret, now / 1000)).toBe(true);
  });

  it('sends no signature without a signing secret', async () => {
    await provider.send(request(), { ...config, settings: {} });
    expect(peer.requests[0].headers['x-notify-signature']).toBeUndefined();
  });

  it('sends a string body as it is and signs it byte for byte', async () => {
    await provider.send(
      request({ method: 'PUT', body: 'plain=text&a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      config,
    );
    const [received] = peer.requests;
    expect(received.method).toBe('PUT');
    expect(received.body).toBe('plain=text&a=1');
    expect(received.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(webhookReceiverAccepts(received, signingSecret, now / 1000)).toBe(true);
  });

  it('sends GET without a body, signed over the empty body', async () => {
    await provider.send(request({ method: 'get' }), config);
    const [received] = peer.requests;
    expect(received.method).toBe('GET');
    expect(received.body).toBe('');
    expect(received.headers['content-type']).toBeUndefined();
    expect(webhookReceiverAccepts(received, signingSecret, now / 1000)).toBe(true);
  });

  it('logs the exchange with the signing secret absent and secret headers redacted', async () => {
    peer.respond = () => ({ status: 202, json: { received: true } });
    const result = await provider.send(request(), config);
    expect(result.logs).toHaveLength(1);
    expect(result.logs[0]).toMatchObject({
      request: {
        method: 'POST',
        url: `${peer.url}/hooks/notify?source=notify`,
        headers: { 'X-Api-Key': '[REDACTED]', 'X-Tenant': 'acme', 'x-notify-signature': peer.requests[0].headers['x-notify-signature'] },
      },
      response: { status: 202, body: { received: true } },
    });
    expect(leakedSecrets(result, [signingSecret, customerApiKey])).toEqual([]);
  });

  it.each([
    [200, false, true, undefined],
    [201, false, true, undefined],
    [204, false, true, undefined],
    [301, false, false, undefined],
    [400, false, false, undefined],
    [401, false, false, undefined],
    [404, false, false, undefined],
    [410, false, false, undefined],
    [408, true, false, undefined],
    [429, true, false, 7000],
    [500, true, false, undefined],
    [502, true, false, undefined],
    [503, true, false, 7000],
  ])('classifies HTTP %i (retryable=%p, delivered=%p)', async (status, retryable, delivered, retryAfterMs) => {
    peer.respond = () => ({
      status,
      headers: { ...(retryAfterMs ? { 'retry-after': '7' } : {}), ...(status === 301 ? { location: 'http://127.0.0.1:9/elsewhere' } : {}) },
      text: status === 204 ? '' : 'answer',
    });
    const result = await provider.send(request(), config);
    if (delivered) {
      expect(result.outcome).toBe('delivered');
    } else {
      expect(result).toMatchObject({ outcome: 'failed', retryable, code: `http_${status}` });
      expect((result as { retryAfterMs?: number }).retryAfterMs).toBe(retryAfterMs);
    }
    expect(peer.requests).toHaveLength(1);
  });

  it('times out on a receiver that never answers (retryable)', async () => {
    peer.respond = () => 'hang';
    const result = await provider.send(request(), { ...config, settings: { ...config.settings, timeout_ms: 200 } });
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'timeout' });
  });

  it('fails retryably when the receiver is down', async () => {
    const result = await provider.send(request({ url: `http://127.0.0.1:${await closedPort()}/hook` }), config);
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'network_error' });
  });
});
