import { form, leakedSecrets, startHttpPeer, type Peer } from '@notify/testing/peers';
import { localPeersOutbound } from '@notify/testing/outbound';
import { REDACTED } from '../support/redactor';
import type { DeliveryRequest, ProviderConfig } from '../types';
import { TwilioProvider } from './twilio.provider';

// The peers listen on 127.0.0.1: these tests allow-list loopback, as a deployment would its own network.
const outbound = localPeersOutbound();
afterAll(() => outbound.close());

const accountSid = 'AC1f0e2d3c4b5a69788796a5b4c3d2e1f0';
const authToken = 'twilio-auth-token-5be1c0ffee';
const apiKeySid = 'SK00112233445566778899aabbccddeeff';
const apiKeySecret = 'twilio-api-key-secret-77';

const request = (overrides: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  messageId: 'msg-s1',
  environment: 'development',
  attempt: 1,
  idempotencyKey: 'msg-s1',
  recipient: { id: 'ada', phone_number: '+15558675310' },
  content: { type: 'sms', body: 'Your code is 123456 & expires soon' },
  ...overrides,
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('TwilioProvider against a local Twilio-like Messages API', () => {
  const provider = new TwilioProvider({ outbound });
  let peer: Peer;
  let config: ProviderConfig;

  beforeAll(async () => {
    peer = await startHttpPeer(() => ({ status: 500, json: {} }));
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.length = 0;
    peer.respond = (req) => {
      const fields = form(req);
      return {
        status: 201,
        json: {
          sid: 'SM9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d',
          status: 'queued',
          to: fields.To,
          from: fields.From ?? null,
          messaging_service_sid: fields.MessagingServiceSid ?? null,
          body: fields.Body,
          num_segments: '1',
          error_code: null,
        },
      };
    };
    config = {
      provider: 'twilio',
      channelType: 'sms',
      baseUrl: peer.url,
      settings: { account_sid: accountSid, auth_token: authToken, from: '+15005550006' },
    };
  });

  it('posts a form with To, From and Body, authenticated with the account SID and auth token', async () => {
    const result = await provider.send(request(), config);

    expect(result).toMatchObject({ outcome: 'sent', providerMessageId: 'SM9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d' });
    const [sent] = peer.requests;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
    expect(sent.headers.authorization).toBe(basic(accountSid, authToken));
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form(sent)).toEqual({ To: '+15558675310', From: '+15005550006', Body: 'Your code is 123456 & expires soon' });
  });

  it('uses a messaging service, an API key and a status callback when configured', async () => {
    const settings = {
      account_sid: accountSid,
      api_key_sid: apiKeySid,
      api_key_secret: apiKeySecret,
      messaging_service_sid: 'MG0123456789abcdef0123456789abcdef',
      status_callback_url: 'https://notify.example.com/twilio/status',
    };
    const result = await provider.send(request(), { ...config, settings });

    expect(result.outcome).toBe('sent');
    const [sent] = peer.requests;
    expect(sent.headers.authorization).toBe(basic(apiKeySid, apiKeySecret));
    expect(form(sent)).toEqual({
      To: '+15558675310',
      Body: 'Your code is 123456 & expires soon',
      MessagingServiceSid: 'MG0123456789abcdef0123456789abcdef',
      StatusCallback: 'https://notify.example.com/twilio/status',
    });
    expect(leakedSecrets(result, [apiKeySecret, basic(apiKeySid, apiKeySecret).slice(6)])).toEqual([]);
  });

  it("reports status to the service's receipts endpoint unless the settings name a status_callback_url", async () => {
    const receiptsUrl = 'https://notify.example.com/v1/receipts/development/sms/twilio';
    expect((await provider.send(request(), { ...config, receiptsUrl })).outcome).toBe('sent');
    expect(form(peer.requests[0]).StatusCallback).toBe(receiptsUrl);

    const settings = { ...config.settings, status_callback_url: 'https://hooks.example.com/twilio' };
    expect((await provider.send(request(), { ...config, settings, receiptsUrl })).outcome).toBe('sent');
    expect(form(peer.requests[1]).StatusCallback).toBe('https://hooks.example.com/twilio');
  });

  it('logs the form and the answer, never the credentials', async () => {
    const result = await provider.send(request(), config);
    expect(result.logs[0]).toMatchObject({
      request: { method: 'POST', headers: { authorization: REDACTED }, body: { To: '+15558675310', From: '+15005550006' } },
      response: { status: 201, body: { sid: 'SM9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d', status: 'queued' } },
    });
    expect(leakedSecrets(result, [authToken, basic(accountSid, authToken).slice(6)])).toEqual([]);
  });

  it.each([
    [400, 21211, "The 'To' number +1555 is not a valid phone number.", {}, false, undefined],
    [400, 21610, 'Attempt to send to unsubscribed recipient', {}, false, undefined],
    [401, 20003, 'Authenticate', {}, false, undefined],
    [404, 20404, 'The requested resource was not found', {}, false, undefined],
    [429, 20429, 'Too Many Requests', { 'retry-after': '30' }, true, 30_000],
    [500, 20500, 'Internal Server Error', {}, true, undefined],
    [503, 20503, 'Service Unavailable', {}, true, undefined],
  ])('classifies HTTP %i (Twilio error %i)', async (status, code, message, headers, retryable, retryAfterMs) => {
    peer.respond = () => ({ status, headers, json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } });
    const result = await provider.send(request(), config);
    expect(result).toMatchObject({ outcome: 'failed', retryable, code: `twilio_${code}`, reason: `HTTP ${status}: ${message}` });
    expect((result as { retryAfterMs?: number }).retryAfterMs).toBe(retryAfterMs);
    expect(leakedSecrets(result, [authToken])).toEqual([]);
  });

  it('times out on an API that never answers (retryable)', async () => {
    peer.respond = () => 'hang';
    const result = await provider.send(request(), { ...config, settings: { ...config.settings, timeout_ms: 200 } });
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'timeout' });
  });
});
