import { generateKeyPairSync } from 'node:crypto';
import { providerCalls } from '@notify/observability';
import { createDefaultRegistry, ProviderRegistry } from './registry';
import type { ChannelType, DeliveryContent, DeliveryProvider, DeliveryRequest, ProviderConfig } from './types';

const request = (
  content: DeliveryContent,
  recipient: DeliveryRequest['recipient'] = { id: 'u1' },
  channelData: DeliveryRequest['channelData'] = null,
): DeliveryRequest => ({
  messageId: 'msg-1',
  environment: 'development',
  attempt: 1,
  idempotencyKey: 'msg-1',
  recipient,
  channelData,
  content,
});
const config = (provider: string, channelType: ChannelType, settings: Record<string, unknown> = {}): ProviderConfig => ({
  provider,
  channelType,
  settings,
});
const pem = (type: 'rsa' | 'ec') =>
  (type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' })).privateKey
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();
const rsaPem = pem('rsa');
const p256Pem = pem('ec');
const email: DeliveryContent = { type: 'email', subject: 'Hi', text_body: 'Hello' };
const push: DeliveryContent = { type: 'push', title: 'T', body: 'B' };
const chat: DeliveryContent = { type: 'chat', markdown_body: '*hi*' };

describe('createDefaultRegistry', () => {
  const registry = createDefaultRegistry();

  it('holds every built-in provider under its id and channel type', () => {
    expect(registry.list().map((p) => [p.id, p.channelType])).toEqual([
      ['in-app-feed', 'in_app_feed'],
      ['smtp', 'email'],
      ['resend', 'email'],
      ['twilio', 'sms'],
      ['fcm', 'push'],
      ['apns', 'push'],
      ['slack', 'chat'],
      ['slack-webhook', 'chat'],
      ['webhook', 'http'],
      ['ses', 'email'],
      ['sendgrid', 'email'],
      ['mailgun', 'email'],
      ['postmark', 'email'],
      ['vonage', 'sms'],
      ['messagebird', 'sms'],
      ['sns', 'sms'],
      ['expo', 'push'],
      ['onesignal', 'push'],
      ['discord', 'chat'],
      ['mattermost', 'chat'],
      ['telegram', 'chat'],
      ['ms-teams-webhook', 'chat'],
      ['ms-teams', 'chat'],
    ]);
    expect(registry.list('push').map((p) => p.id)).toEqual(['fcm', 'apns', 'expo', 'onesignal']);
    expect(registry.get('twilio')?.channelType).toBe('sms');
    expect(registry.get('nope')).toBeUndefined();
  });

  it('delivers in-app messages without calling anything', async () => {
    const result = await registry.send(
      request({ type: 'in_app_feed', blocks: [{ type: 'markdown', rendered: '<p>hi</p>' }] }),
      config('in-app-feed', 'in_app_feed'),
    );
    expect(result).toEqual({ outcome: 'delivered', providerMessageId: 'msg-1', logs: [] });
  });

  it('fails permanently for an unknown provider or a provider of another channel type', async () => {
    expect(await registry.send(request(email), config('sparkpost', 'email'))).toMatchObject({
      outcome: 'failed',
      retryable: false,
      code: 'unknown_provider',
    });
    expect(await registry.send(request(email), config('twilio', 'email'))).toMatchObject({
      outcome: 'failed',
      retryable: false,
      code: 'invalid_settings',
    });
    expect(registry.validate(config('twilio', 'email'))).toEqual(['provider twilio delivers sms, not email']);
  });

  it('fails permanently when the content is for another channel', async () => {
    expect(await registry.send(request(push), config('resend', 'email', { api_key: 're_123456789', from: 'a@b.c' }))).toMatchObject({
      outcome: 'failed',
      retryable: false,
      code: 'invalid_content',
    });
  });

  it.each([
    ['smtp', 'email', {}, ['host is required']],
    [
      'smtp',
      'email',
      { host: 'h', port: 'x', auth: { user: 'u' } },
      ['port must be a number from 1 to 65535', 'auth must be {user, pass}'],
    ],
    ['resend', 'email', {}, ['api_key is required']],
    [
      'twilio',
      'sms',
      { account_sid: 'AC1' },
      ['auth_token (or api_key_sid and api_key_secret) is required', 'from or messaging_service_sid is required'],
    ],
    ['twilio', 'sms', { account_sid: 'AC1', api_key_sid: 'SK1', api_key_secret: 'sec', messaging_service_sid: 'MG1' }, []],
    ['fcm', 'push', {}, ['service_account is required (the JSON key of a Google service account)']],
    [
      'fcm',
      'push',
      { service_account: '{"client_email":"a@b"}' },
      ['service_account.private_key is required', 'project_id is required (in the settings or the service account)'],
    ],
    [
      'fcm',
      'push',
      { service_account: { client_email: 'a@b', project_id: 'p', private_key: 'not a key' } },
      ['service_account.private_key is not a PEM private key'],
    ],
    [
      'fcm',
      'push',
      { service_account: { client_email: 'a@b', project_id: 'p', private_key: p256Pem } },
      ['service_account.private_key is a ec key, not RSA'],
    ],
    ['fcm', 'push', { service_account: { client_email: 'a@b', project_id: 'p', private_key: rsaPem.replace(/\n/g, '\\n') } }, []],
    [
      'apns',
      'push',
      { key_id: 'K', team_id: 'T', private_key: p256Pem, bundle_id: 'b', environment: 'staging' },
      ['environment must be production or development'],
    ],
    ['apns', 'push', { key_id: 'K', team_id: 'T', private_key: rsaPem, bundle_id: 'b' }, ['private_key is not a P-256 (ES256) key']],
    ['slack', 'chat', {}, []],
    ['webhook', 'http', {}, []],
  ] as const)('validates %s settings %j', (provider, channelType, settings, problems) => {
    expect(registry.validate(config(provider, channelType, settings))).toEqual(problems);
  });

  it('names the setting at fault for every built-in provider, the older ones too', () => {
    expect(registry.settingsIssues({ provider: 'smtp', settings: { host: 'h', port: 'x', auth: { user: 'u' } } })).toEqual([
      { field: 'port', message: 'must be a number from 1 to 65535' },
      { field: 'auth', message: 'must be {user, pass}' },
    ]);
    expect(registry.settingsIssues({ provider: 'twilio', settings: { account_sid: 'AC1', auth_token: 't' } })).toEqual([
      { field: 'from', message: 'or messaging_service_sid is required' },
    ]);
    expect(registry.settingsIssues({ provider: 'apns', settings: { key_id: 'K', team_id: 'T', bundle_id: 'b' } })).toEqual([
      { field: 'private_key', message: 'is required' },
    ]);
    expect(registry.settingsIssues({ provider: 'fcm', settings: { service_account: { client_email: 'a@b' }, project_id: 'p' } })).toEqual([
      { field: 'service_account.private_key', message: 'is required' },
    ]);
    expect(registry.settingsIssues({ provider: 'resend', settings: { api_key: '  ' } })).toEqual([
      { field: 'api_key', message: 'is required' },
    ]);
  });

  it('fails permanently with the problems when the settings are unusable', async () => {
    const result = await registry.send(request(email, { id: 'u1', email: 'a@b.c' }), config('resend', 'email', {}));
    expect(result).toEqual({
      outcome: 'failed',
      retryable: false,
      code: 'invalid_settings',
      reason: 'resend: api_key is required',
      logs: [],
    });
  });

  it.each([
    ['resend', 'email', email, { api_key: 're_123456789', from: 'a@b.c' }, { id: 'u1', email: '  ' }, null, 'missing_recipient_email'],
    ['smtp', 'email', email, { host: 'localhost', from: 'a@b.c' }, { id: 'u1' }, null, 'missing_recipient_email'],
    [
      'twilio',
      'sms',
      { type: 'sms', body: 'x' },
      { account_sid: 'AC1', auth_token: 'tok', from: '+15005550006' },
      { id: 'u1', phone_number: null },
      null,
      'missing_recipient_phone_number',
    ],
    [
      'apns',
      'push',
      push,
      { key_id: 'K', team_id: 'T', private_key: p256Pem, bundle_id: 'b' },
      { id: 'u1' },
      { tokens: [] },
      'missing_push_tokens',
    ],
    [
      'slack',
      'chat',
      chat,
      {},
      { id: 'u1' },
      { connections: [{ incoming_webhook: { url: 'https://hooks.example.com/x' } }] },
      'missing_channel_data',
    ],
    [
      'slack-webhook',
      'chat',
      chat,
      {},
      { id: 'u1' },
      { connections: [{ channel_id: 'C1', access_token: 'xoxb-1' }] },
      'missing_channel_data',
    ],
  ] as const)(
    'fails %s permanently without an address to send to',
    async (provider, channelType, content, settings, recipient, channelData, code) => {
      const result = await registry.send(
        request(content as DeliveryContent, recipient, channelData),
        config(provider, channelType, settings),
      );
      expect(result).toMatchObject({ outcome: 'failed', retryable: false, code, logs: [] });
    },
  );

  it('fails permanently on a webhook URL that is not http(s)', async () => {
    const result = await registry.send(request({ type: 'http', method: 'post', url: 'ftp://example.com/x' }), config('webhook', 'http'));
    expect(result).toMatchObject({ outcome: 'failed', retryable: false, code: 'invalid_webhook_url' });
  });
});

describe('ProviderRegistry', () => {
  const throwing: DeliveryProvider = {
    id: 'throws',
    channelType: 'sms',
    send: () => Promise.reject(new Error('boom')),
  };

  it('refuses two providers with one id', () => {
    expect(() => new ProviderRegistry([throwing, throwing])).toThrow('already registered');
  });

  it('turns an exception from a provider into a permanent failure', async () => {
    const result = await new ProviderRegistry([throwing]).send(request({ type: 'sms', body: 'x' }), config('throws', 'sms'));
    expect(result).toEqual({ outcome: 'failed', retryable: false, code: 'provider_error', reason: 'boom', logs: [] });
  });
});

describe('provider call metrics', () => {
  const countOf = async (labels: Record<string, string>) => {
    const metric = await providerCalls.get();
    return (
      metric.values.find(
        (v) =>
          v.metricName === 'notify_provider_call_duration_seconds_count' &&
          Object.entries(labels).every(([k, value]) => (v.labels as Record<string, unknown>)[k] === value),
      )?.value ?? 0
    );
  };
  const provider = (id: string, send: DeliveryProvider['send']): DeliveryProvider => ({ id, channelType: 'sms', send }) as DeliveryProvider;

  it('times every provider call by provider, channel type and outcome, a throwing provider as failed', async () => {
    const registry = new ProviderRegistry([
      provider('metrics-ok', async () => ({ outcome: 'delivered', providerMessageId: 'p1', logs: [] })),
      provider('metrics-throws', async () => {
        throw new Error('boom');
      }),
    ]);
    const before = {
      ok: await countOf({ provider: 'metrics-ok', outcome: 'delivered' }),
      thrown: await countOf({ provider: 'metrics-throws', outcome: 'failed' }),
    };
    const sms: DeliveryContent = { type: 'sms', body: 'hi' };
    await registry.send(request(sms), config('metrics-ok', 'sms'));
    await registry.send(request(sms), config('metrics-ok', 'sms'));
    expect(await registry.send(request(sms), config('metrics-throws', 'sms'))).toMatchObject({ outcome: 'failed', code: 'provider_error' });
    expect(await countOf({ provider: 'metrics-ok', channel_type: 'sms', outcome: 'delivered' })).toBe(before.ok + 2);
    expect(await countOf({ provider: 'metrics-throws', channel_type: 'sms', outcome: 'failed' })).toBe(before.thrown + 1);
  });
});
