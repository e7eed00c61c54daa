import { closedPort, json, leakedSecrets, startHttpPeer, type Peer } from '@notify/testing/peers';
import { localPeersOutbound } from '@notify/testing/outbound';
import { resendApi } from '@notify/testing/provider-peers';
import { REDACTED } from '../support/redactor';
import type { DeliveryRequest, ProviderConfig } from '../types';
import { ResendProvider } from './resend.provider';

// The peers listen on 127.0.0.1: these tests allow-list loopback, as a deployment would its own network.
const outbound = localPeersOutbound();
afterAll(() => outbound.close());

const apiKey = 're_live_9f8e7d6c5b4a';

const request = (overrides: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  messageId: 'msg-r1',
  environment: 'production',
  attempt: 1,
  idempotencyKey: 'message/msg-r1',
  recipient: { id: 'ada', email: 'ada@example.org', name: 'Ada Lovelace' },
  content: {
    type: 'email',
    subject: 'Welcome',
    html_body: '<h1>Hi</h1>',
    text_body: 'Hi',
    bcc: ['audit@example.com'],
    reply_to: 'help@example.com',
    headers: { 'X-Entity-Ref-ID': 'r1' },
  },
  ...overrides,
});

describe('ResendProvider against a local Resend-like API', () => {
  const provider = new ResendProvider({ outbound });
  let peer: Peer;
  let config: ProviderConfig;
  /** Like Resend: one email per idempotency key, the same id for every repeat. */
  const emailsByKey = new Map<string, string>();

  beforeAll(async () => {
    peer = await startHttpPeer(() => ({ status: 500, json: {} }));
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.length = 0;
    emailsByKey.clear();
    peer.respond = resendApi(apiKey, emailsByKey);
    config = {
      provider: 'resend',
      channelType: 'email',
      baseUrl: peer.url,
      settings: { api_key: apiKey, from: 'Acme <onboarding@acme.example>' },
    };
  });

  it('posts the email with the API key and the idempotency key', async () => {
    const result = await provider.send(request(), config);

    expect(result).toMatchObject({ outcome: 'sent', providerMessageId: '4ef9a417-02e9-4d39-ad75-9611e0fcc330' });
    expect(peer.requests).toHaveLength(1);
    const [sent] = peer.requests;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/emails');
    expect(sent.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(sent.headers['idempotency-key']).toBe('message/msg-r1');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(json(sent)).toEqual({
      from: 'Acme <onboarding@acme.example>',
      to: ['"Ada Lovelace" <ada@example.org>'],
      subject: 'Welcome',
      html: '<h1>Hi</h1>',
      text: 'Hi',
      bcc: ['audit@example.com'],
      reply_to: 'help@example.com',
      headers: { 'X-Entity-Ref-ID': 'r1' },
    });
  });

  it('sends the same key on a retry, so Resend answers with the first email', async () => {
    const first = await provider.send(request({ attempt: 1 }), config);
    const second = await provider.send(request({ attempt: 2 }), config);
    expect(peer.requests.map((r) => r.headers['idempotency-key'])).toEqual(['message/msg-r1', 'message/msg-r1']);
    expect(emailsByKey.size).toBe(1);
    expect(second).toMatchObject({ outcome: 'sent', providerMessageId: (first as { providerMessageId: string }).providerMessageId });
  });

  it('logs request and response with the API key redacted', async () => {
    const result = await provider.send(request(), config);
    expect(result.logs).toHaveLength(1);
    expect(result.logs[0]).toMatchObject({
      request: {
        method: 'POST',
        url: `${peer.url}/emails`,
        headers: { authorization: REDACTED, 'idempotency-key': 'message/msg-r1' },
        body: { subject: 'Welcome' },
      },
      response: { status: 200, body: { id: expect.any(String) } },
    });
    expect(result.logs[0].duration_ms).toBeGreaterThanOrEqual(0);
    expect(leakedSecrets(result, [apiKey])).toEqual([]);
  });

  it.each([
    [422, { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' }, {}, false, 'validation_error', undefined],
    [
      401,
      { statusCode: 401, name: 'missing_api_key', message: 'Missing API key in the authorization header' },
      {},
      false,
      'missing_api_key',
      undefined,
    ],
    [403, { statusCode: 403, name: 'invalid_api_key', message: 'API key is invalid' }, {}, false, 'invalid_api_key', undefined],
    [
      409,
      { statusCode: 409, name: 'invalid_idempotent_request', message: 'Same idempotency key used with a different request payload.' },
      {},
      false,
      'invalid_idempotent_request',
      undefined,
    ],
    [
      409,
      {
        statusCode: 409,
        name: 'concurrent_idempotent_requests',
        message: 'Same idempotency key used while original request is still in progress.',
      },
      {},
      true,
      'concurrent_idempotent_requests',
      undefined,
    ],
    [
      429,
      { statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests.' },
      { 'retry-after': '2' },
      true,
      'rate_limit_exceeded',
      2000,
    ],
    [
      500,
      { statusCode: 500, name: 'internal_server_error', message: 'An unexpected error occurred.' },
      {},
      true,
      'internal_server_error',
      undefined,
    ],
    [503, 'upstream unavailable', {}, true, 'http_503', undefined],
  ])('classifies HTTP %i %j', async (status, body, headers, retryable, code, retryAfterMs) => {
    peer.respond = () => (typeof body === 'string' ? { status, headers, text: body } : { status, headers, json: body });
    const result = await provider.send(request(), config);
    expect(result).toMatchObject({ outcome: 'failed', retryable, code, reason: expect.stringContaining(`HTTP ${status}`) });
    expect((result as { retryAfterMs?: number }).retryAfterMs).toBe(retryAfterMs);
    expect(result.logs[0].response?.status).toBe(status);
    expect(leakedSecrets(result, [apiKey])).toEqual([]);
  });

  it('times out on an API that never answers (retryable)', async () => {
    peer.respond = () => 'hang';
    const result = await provider.send(request(), { ...config, timeoutMs: 250 });
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'timeout', reason: 'no response within 250 ms' });
    expect(result.logs[0]).toMatchObject({ error: 'timeout: no response within 250 ms' });
    expect(result.logs[0].response).toBeUndefined();
  });

  it('fails retryably when the API cannot be reached', async () => {
    const result = await provider.send(request(), { ...config, baseUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(result).toMatchObject({
      outcome: 'failed',
      retryable: true,
      code: 'network_error',
      reason: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
