import { form, json, startHttpPeer, type Peer, type PeerResponse, type RecordedRequest } from '@notify/testing/peers';
import { localPeersOutbound } from '@notify/testing/outbound';
import { awsSignatureProblem, microsoftTokenEndpoint } from '@notify/testing/provider-peers';
import { createDefaultRegistry } from '../registry';
import { REDACTED } from '../support/redactor';
import type { ChannelType, DeliveryContent, DeliveryRequest, DeliveryResult } from '../types';

/**
 * The providers added for issue 21, table-driven against one local HTTP peer that answers like
 * each provider's API: a success (the request checked as the real API would: auth, signature,
 * body), a permanent refusal (recorded, not retried), an outage (retried) and no answer at all
 * (the deadline, retried). Each goes through the registry, the one provider port.
 */
const outbound = localPeersOutbound();
const registry = createDefaultRegistry({ outbound });
let peer: Peer;
beforeAll(async () => {
  peer = await startHttpPeer(() => ({ status: 500, json: {} }));
});
afterAll(async () => {
  await peer.close();
  await outbound.close();
});

const aws = { access_key_id: 'AKIAEXAMPLE0PROVIDER', secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'eu-west-1' };
const teamsApp = { appId: '9b1c2d3e-0000-4000-8000-00000000b07a', password: 'teams-app-password-0123456789', issued: [] as string[] };

const email: DeliveryContent = {
  type: 'email',
  subject: 'Welcome',
  html_body: '<p>Hi</p>',
  text_body: 'Hi',
  from: 'Acme <hello@acme.example>',
};
const sms: DeliveryContent = { type: 'sms', body: 'Your code is 123456' };
const push: DeliveryContent = { type: 'push', title: 'Hi', body: 'You have mail', data: { n: 1 } };
const chat: DeliveryContent = { type: 'chat', markdown_body: '*Deploy* finished', summary: 'Deploy finished' };
const recipient = { id: 'ada', email: 'ada@example.org', name: 'Ada', phone_number: '+15558675310' };

interface Row {
  provider: string;
  channelType: ChannelType;
  content: DeliveryContent;
  settings: (base: string) => Record<string, unknown>;
  channelData?: (base: string) => Record<string, unknown>;
  /** Checks the request as the real API would and answers like it; `problem` is a refusal of a malformed call. */
  success: (req: RecordedRequest) => Promise<PeerResponse> | PeerResponse;
  providerMessageId: string;
  rejected: PeerResponse;
  rejectedCode: string;
  unavailable: PeerResponse;
  /** A secret that must not appear in the logs. */
  secret: string;
  /** Paths answered whatever the case (token endpoints). */
  always?: (req: RecordedRequest) => PeerResponse | undefined;
}

const bad = (what: string): PeerResponse => ({ status: 599, text: `peer refused: ${what}` });

const rows: Row[] = [
  {
    provider: 'ses',
    channelType: 'email',
    content: email,
    settings: () => ({ ...aws }),
    success: async (req) => {
      const problem = await awsSignatureProblem(req, {
        accessKeyId: aws.access_key_id,
        secretAccessKey: aws.secret_access_key,
        region: 'eu-west-1',
        service: 'ses',
      });
      if (problem) return { status: 403, headers: { 'x-amzn-errortype': `${problem}:` }, json: { message: problem } };
      const body = json(req);
      if (
        req.url !== '/v2/email/outbound-emails' ||
        body.Destination.ToAddresses[0] !== '"Ada" <ada@example.org>' ||
        body.Content.Simple.Body.Html.Data !== '<p>Hi</p>'
      )
        return bad(JSON.stringify(body));
      return { status: 200, json: { MessageId: '0102018c-ses-message-id' } };
    },
    providerMessageId: '0102018c-ses-message-id',
    rejected: {
      status: 400,
      headers: { 'x-amzn-errortype': 'MessageRejected:http://internal.amazon.com/coral/com.amazonaws.sesv2/' },
      json: { message: 'Email address is not verified.' },
    },
    rejectedCode: 'ses_MessageRejected',
    unavailable: { status: 503, headers: { 'x-amzn-errortype': 'ServiceUnavailable:' }, json: { message: 'Service unavailable' } },
    secret: aws.secret_access_key,
  },
  {
    provider: 'sendgrid',
    channelType: 'email',
    content: email,
    settings: () => ({ api_key: 'SG.sendgrid-api-key-0123456789' }),
    success: (req) => {
      const body = json(req);
      if (req.url !== '/v3/mail/send' || req.headers.authorization !== 'Bearer SG.sendgrid-api-key-0123456789') return bad('auth');
      if (
        body.personalizations[0].to[0].email !== 'ada@example.org' ||
        body.from.email !== 'hello@acme.example' ||
        body.custom_args.notify_message_id !== 'msg-1'
      )
        return bad(JSON.stringify(body));
      return { status: 202, headers: { 'x-message-id': 'sg-message-id-1' }, text: '' };
    },
    providerMessageId: 'sg-message-id-1',
    rejected: {
      status: 403,
      json: { errors: [{ message: 'The from address does not match a verified Sender Identity.', field: 'from', help: null }] },
    },
    rejectedCode: 'http_403',
    unavailable: { status: 503, text: 'Service Unavailable' },
    secret: 'SG.sendgrid-api-key-0123456789',
  },
  {
    provider: 'mailgun',
    channelType: 'email',
    content: email,
    settings: () => ({ api_key: 'key-mailgun-0123456789', domain: 'mg.acme.example' }),
    success: (req) => {
      const fields = form(req);
      if (
        req.url !== '/v3/mg.acme.example/messages' ||
        req.headers.authorization !== `Basic ${Buffer.from('api:key-mailgun-0123456789').toString('base64')}`
      )
        return bad('auth');
      if (fields.to !== '"Ada" <ada@example.org>' || fields.html !== '<p>Hi</p>' || fields['v:notify_message_id'] !== 'msg-1')
        return bad(JSON.stringify(fields));
      return { status: 200, json: { id: '<20241126.1@mg.acme.example>', message: 'Queued. Thank you.' } };
    },
    providerMessageId: '20241126.1@mg.acme.example',
    rejected: { status: 400, json: { message: "'to' parameter is not a valid address. please check documentation" } },
    rejectedCode: 'http_400',
    unavailable: { status: 500, text: 'Internal Server Error' },
    secret: 'key-mailgun-0123456789',
  },
  {
    provider: 'postmark',
    channelType: 'email',
    content: email,
    settings: () => ({ server_token: 'postmark-server-token-0123' }),
    success: (req) => {
      const body = json(req);
      if (req.url !== '/email' || req.headers['x-postmark-server-token'] !== 'postmark-server-token-0123')
        return { status: 401, json: { ErrorCode: 10, Message: 'Bad or missing Server API token.' } };
      if (body.To !== '"Ada" <ada@example.org>' || body.MessageStream !== 'outbound' || body.Metadata.notify_message_id !== 'msg-1')
        return bad(JSON.stringify(body));
      return {
        status: 200,
        json: {
          To: body.To,
          SubmittedAt: '2026-11-26T08:00:00Z',
          MessageID: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817',
          ErrorCode: 0,
          Message: 'OK',
        },
      };
    },
    providerMessageId: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817',
    rejected: { status: 422, json: { ErrorCode: 406, Message: 'You tried to send to recipient(s) that have been marked as inactive.' } },
    rejectedCode: 'postmark_406',
    unavailable: { status: 500, json: { ErrorCode: 100, Message: 'Maintenance' } },
    secret: 'postmark-server-token-0123',
  },
  {
    provider: 'vonage',
    channelType: 'sms',
    content: sms,
    settings: () => ({ api_key: 'a1b2c3d4', api_secret: 'vonage-secret-0123', from: 'Acme' }),
    success: (req) => {
      const body = json(req);
      if (
        req.url !== '/sms/json' ||
        body.api_secret !== 'vonage-secret-0123' ||
        body.to !== '15558675310' ||
        body.text !== 'Your code is 123456'
      )
        return bad(JSON.stringify(body));
      return {
        status: 200,
        json: {
          'message-count': '1',
          messages: [
            {
              to: body.to,
              'message-id': '0A0000000123ABCD1',
              status: '0',
              'remaining-balance': '3.14',
              'message-price': '0.03',
              network: '12345',
            },
          ],
        },
      };
    },
    providerMessageId: '0A0000000123ABCD1',
    // Vonage answers refusals with HTTP 200 and a status per message part.
    rejected: { status: 200, json: { 'message-count': '1', messages: [{ status: '29', 'error-text': 'Non-Whitelisted Destination' }] } },
    rejectedCode: 'vonage_29',
    unavailable: { status: 502, text: 'Bad Gateway' },
    secret: 'vonage-secret-0123',
  },
  {
    provider: 'messagebird',
    channelType: 'sms',
    content: sms,
    settings: () => ({ access_key: 'live-messagebird-key-0123', originator: 'Acme' }),
    success: (req) => {
      const body = json(req);
      if (req.headers.authorization !== 'AccessKey live-messagebird-key-0123')
        return {
          status: 401,
          json: { errors: [{ code: 2, description: 'Request not allowed (incorrect access_key)', parameter: 'access_key' }] },
        };
      if (req.url !== '/messages' || body.recipients[0] !== '15558675310' || body.originator !== 'Acme') return bad(JSON.stringify(body));
      return {
        status: 201,
        json: {
          id: 'e8077d803532c0b5937c639b60216938',
          href: 'https://rest.messagebird.com/messages/e8077d803532c0b5937c639b60216938',
          body: body.body,
        },
      };
    },
    providerMessageId: 'e8077d803532c0b5937c639b60216938',
    rejected: { status: 422, json: { errors: [{ code: 9, description: 'no (correct) recipients found', parameter: 'recipients' }] } },
    rejectedCode: 'messagebird_9',
    unavailable: { status: 500, json: { errors: [{ code: 99, description: 'internal error' }] } },
    secret: 'live-messagebird-key-0123',
  },
  {
    provider: 'sns',
    channelType: 'sms',
    content: sms,
    settings: () => ({ ...aws, sender_id: 'Acme' }),
    success: async (req) => {
      const problem = await awsSignatureProblem(req, {
        accessKeyId: aws.access_key_id,
        secretAccessKey: aws.secret_access_key,
        region: 'eu-west-1',
        service: 'sns',
      });
      if (problem)
        return {
          status: 403,
          text: `<ErrorResponse><Error><Type>Sender</Type><Code>${problem}</Code><Message>bad</Message></Error></ErrorResponse>`,
        };
      const fields = form(req);
      if (
        fields.Action !== 'Publish' ||
        fields.PhoneNumber !== '+15558675310' ||
        fields['MessageAttributes.entry.2.Value.StringValue'] !== 'Acme'
      )
        return bad(JSON.stringify(fields));
      return {
        status: 200,
        headers: { 'content-type': 'text/xml' },
        text: '<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>567910cd-659e-55d4-8ccb-5aaf14679dc0</MessageId></PublishResult><ResponseMetadata><RequestId>d74b8436</RequestId></ResponseMetadata></PublishResponse>',
      };
    },
    providerMessageId: '567910cd-659e-55d4-8ccb-5aaf14679dc0',
    rejected: {
      status: 400,
      headers: { 'content-type': 'text/xml' },
      text: '<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>Invalid parameter: PhoneNumber</Message></Error></ErrorResponse>',
    },
    rejectedCode: 'sns_InvalidParameter',
    unavailable: {
      status: 500,
      headers: { 'content-type': 'text/xml' },
      text: '<ErrorResponse><Error><Type>Receiver</Type><Code>InternalError</Code><Message>oops</Message></Error></ErrorResponse>',
    },
    secret: aws.secret_access_key,
  },
  {
    provider: 'expo',
    channelType: 'push',
    content: push,
    settings: () => ({ access_token: 'expo-access-token-0123' }),
    channelData: () => ({ tokens: ['ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]'] }),
    success: (req) => {
      const body = json(req);
      if (req.url !== '/--/api/v2/push/send' || req.headers.authorization !== 'Bearer expo-access-token-0123')
        return { status: 401, json: { errors: [{ code: 'UNAUTHORIZED', message: 'bad token' }] } };
      if (body[0].to !== 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]' || body[0].data.notify_message_id !== 'msg-1')
        return bad(JSON.stringify(body));
      return { status: 200, json: { data: [{ status: 'ok', id: 'XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX' }] } };
    },
    providerMessageId: 'XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX',
    rejected: { status: 400, json: { errors: [{ code: 'VALIDATION_ERROR', message: '"to" must be a string' }] } },
    rejectedCode: 'expo_VALIDATION_ERROR',
    unavailable: { status: 503, text: 'Service Unavailable' },
    secret: 'expo-access-token-0123',
  },
  {
    provider: 'onesignal',
    channelType: 'push',
    content: push,
    settings: () => ({ app_id: '5eb5a37e-b458-11e3-ac11-000c2940e62c', rest_api_key: 'os_v2_app_restkey0123456789' }),
    channelData: () => ({ player_ids: ['1dd608f2-c6a1-11e3-851d-000c2940e62c'] }),
    success: (req) => {
      const body = json(req);
      if (req.url !== '/notifications' || req.headers.authorization !== 'Key os_v2_app_restkey0123456789')
        return { status: 403, json: { errors: ['Access denied.'] } };
      if (
        body.include_subscription_ids[0] !== '1dd608f2-c6a1-11e3-851d-000c2940e62c' ||
        body.contents.en !== 'You have mail' ||
        body.idempotency_key !== 'key-1'
      )
        return bad(JSON.stringify(body));
      return { status: 200, json: { id: 'b98881cc-1e94-4366-bbd9-db8f3429292b', external_id: null } };
    },
    providerMessageId: 'b98881cc-1e94-4366-bbd9-db8f3429292b',
    rejected: { status: 400, json: { errors: ['app_id not found. You may be missing a Content-Type: application/json header.'] } },
    rejectedCode: 'http_400',
    unavailable: { status: 500, json: { errors: ['Internal Server Error'] } },
    secret: 'os_v2_app_restkey0123456789',
  },
  {
    provider: 'discord',
    channelType: 'chat',
    content: chat,
    settings: () => ({}),
    channelData: (base) => ({
      connections: [{ incoming_webhook: { url: `${base}/api/webhooks/1100000000000000001/discordWebhookTokenSecret0123456789` } }],
    }),
    success: (req) => {
      if (
        req.url !== '/api/webhooks/1100000000000000001/discordWebhookTokenSecret0123456789?wait=true' ||
        json(req).content !== '*Deploy* finished'
      )
        return bad(req.url);
      return { status: 200, json: { id: '1100000000000000999', type: 0, content: json(req).content, channel_id: '1100000000000000002' } };
    },
    providerMessageId: '1100000000000000999',
    rejected: { status: 404, json: { message: 'Unknown Webhook', code: 10015 } },
    rejectedCode: 'discord_10015',
    unavailable: { status: 502, text: 'Bad Gateway' },
    secret: 'discordWebhookTokenSecret0123456789',
  },
  {
    provider: 'mattermost',
    channelType: 'chat',
    content: chat,
    settings: () => ({ username: 'notify' }),
    channelData: (base) => ({ connections: [{ incoming_webhook: { url: `${base}/hooks/xmattermosthookkey0123456a` } }] }),
    success: (req) => {
      if (req.url !== '/hooks/xmattermosthookkey0123456a' || json(req).text !== '*Deploy* finished' || json(req).username !== 'notify')
        return bad(req.body);
      return { status: 200, text: 'ok' };
    },
    providerMessageId: '',
    rejected: { status: 400, json: { id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.', status_code: 400 } },
    rejectedCode: 'http_400',
    unavailable: { status: 500, text: 'Internal Server Error' },
    secret: 'xmattermosthookkey0123456a',
  },
  {
    provider: 'telegram',
    channelType: 'chat',
    content: chat,
    settings: () => ({ bot_token: '123456:ABC-telegram-bot-token' }),
    channelData: () => ({ connections: [{ channel_id: '-1001234567890' }] }),
    success: (req) => {
      if (req.url !== '/bot123456:ABC-telegram-bot-token/sendMessage' || json(req).chat_id !== '-1001234567890')
        return { status: 401, json: { ok: false, error_code: 401, description: 'Unauthorized' } };
      return {
        status: 200,
        json: {
          ok: true,
          result: { message_id: 42, chat: { id: -1001234567890, type: 'channel' }, date: 1764144000, text: json(req).text },
        },
      };
    },
    providerMessageId: '42',
    rejected: { status: 400, json: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } },
    rejectedCode: 'telegram_400',
    unavailable: { status: 502, text: 'Bad Gateway' },
    secret: '123456:ABC-telegram-bot-token',
  },
  {
    provider: 'ms-teams-webhook',
    channelType: 'chat',
    content: chat,
    settings: () => ({}),
    channelData: (base) => ({
      connections: [
        { incoming_webhook: { url: `${base}/webhookb2/0f3c9a8e-1b2c-4d5e-8f90-a1b2c3d4e5f6/IncomingWebhook/teamsHookSecret0123456789` } },
      ],
    }),
    success: (req) => {
      if (!req.url.startsWith('/webhookb2/') || json(req).text !== '*Deploy* finished') return bad(req.body);
      return { status: 200, text: '1' };
    },
    providerMessageId: '',
    rejected: { status: 400, text: 'Bad payload received by generic incoming webhook.' },
    rejectedCode: 'http_400',
    unavailable: { status: 500, text: 'Microsoft Teams endpoint returned HTTP error 500' },
    secret: 'teamsHookSecret0123456789',
  },
  {
    provider: 'ms-teams',
    channelType: 'chat',
    content: chat,
    settings: (base) => ({ app_id: teamsApp.appId, app_password: teamsApp.password, login_url: base }),
    channelData: () => ({
      ms_teams_tenant_id: '7d1b2c3a-0000-4000-8000-0000000007e7',
      connections: [
        { ms_teams_channel_id: '0c2e6a4d-1111-4111-8111-1111111111c1', ms_teams_team_id: '0c2e6a4d-2222-4222-8222-2222222222c2' },
      ],
    }),
    always: (req) => (req.url === '/botframework.com/oauth2/v2.0/token' ? microsoftTokenEndpoint(req, teamsApp) : undefined),
    success: (req) => {
      if (req.headers.authorization !== `Bearer ${teamsApp.issued.at(-1)}`)
        return { status: 401, json: { message: 'Authorization has been denied for this request.' } };
      const body = json(req);
      if (
        req.url !== '/v3/conversations' ||
        body.channelData.channel.id !== '0c2e6a4d-1111-4111-8111-1111111111c1' ||
        body.channelData.tenant.id !== '7d1b2c3a-0000-4000-8000-0000000007e7' ||
        body.activity.text !== '*Deploy* finished'
      )
        return bad(JSON.stringify(body));
      return { status: 201, json: { id: '19:abc@thread.tacv2;messageid=1764144000000', activityId: '1764144000000' } };
    },
    providerMessageId: '1764144000000',
    rejected: {
      status: 403,
      json: { error: { code: 'BotNotInConversationRoster', message: 'The bot is not part of the conversation roster.' } },
    },
    rejectedCode: 'ms_teams_BotNotInConversationRoster',
    unavailable: { status: 502, json: { error: { code: 'ServiceError', message: 'Upstream failure' } } },
    secret: teamsApp.password,
  },
];

const send = (row: Row, timeoutMs = 5_000): Promise<DeliveryResult> => {
  const request: DeliveryRequest = {
    messageId: 'msg-1',
    environment: 'production',
    attempt: 1,
    idempotencyKey: 'key-1',
    recipient,
    channelData: row.channelData?.(peer.url) ?? null,
    content: row.content,
  };
  // Chat providers post to the URLs in channel data; the others call their API origin, here the peer.
  return registry.send(request, {
    provider: row.provider,
    channelType: row.channelType,
    settings: row.settings(peer.url),
    baseUrl: peer.url,
    timeoutMs,
  });
};

/** One delivery with the peer answering `answer` (token endpoints answer whatever the case). */
function run(
  row: Row,
  answer: (req: RecordedRequest) => Promise<PeerResponse> | PeerResponse | 'hang',
  timeoutMs?: number,
): Promise<DeliveryResult> {
  peer.requests.length = 0;
  peer.respond = (req) => row.always?.(req) ?? answer(req);
  return send(row, timeoutMs);
}

describe.each(rows)('$provider through the provider port', (row) => {
  it('success: sent, with the provider id, secrets out of the log', async () => {
    const result = await run(row, row.success);
    expect([result.outcome, result.outcome === 'failed' ? result.reason : null]).toEqual(['sent', null]);
    if (row.providerMessageId) expect(result).toMatchObject({ providerMessageId: row.providerMessageId });
    expect(JSON.stringify(result.logs)).not.toContain(row.secret);
    expect(JSON.stringify(result.logs)).toContain(REDACTED);
  });

  it('a refusal (4xx): failed, not retryable, the provider code recorded', async () => {
    const result = await run(row, () => row.rejected);
    expect(result).toMatchObject({ outcome: 'failed', retryable: false, code: row.rejectedCode });
    expect(result.logs.at(-1)?.response?.status).toBe(row.rejected.status);
  });

  it('an outage (5xx): failed, retryable', async () => {
    const result = await run(row, () => row.unavailable);
    expect(result).toMatchObject({ outcome: 'failed', retryable: true });
  });

  it('no answer: failed at the deadline, retryable', async () => {
    const result = await run(row, () => 'hang', 300);
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'timeout' });
  });
});

it('ms-teams: a user connection gets a one-to-one conversation, then the message in it', async () => {
  const row = rows.find((r) => r.provider === 'ms-teams')!;
  const user = {
    ...row,
    channelData: () => ({
      connections: [
        { ms_teams_user_id: '29a1b2c3-0000-4000-8000-0000000000a1', ms_teams_tenant_id: '7d1b2c3a-0000-4000-8000-0000000007e7' },
      ],
    }),
  };
  const result = await run(user, (req) => {
    if (req.headers.authorization !== `Bearer ${teamsApp.issued.at(-1)}`) return { status: 401, json: {} };
    if (req.url === '/v3/conversations') {
      const body = json(req);
      if (
        body.bot.id !== `28:${teamsApp.appId}` ||
        body.members[0].id !== '29a1b2c3-0000-4000-8000-0000000000a1' ||
        body.tenantId !== '7d1b2c3a-0000-4000-8000-0000000007e7'
      )
        return bad(req.body);
      return { status: 201, json: { id: 'a:1on1-conversation' } };
    }
    if (req.url === '/v3/conversations/a%3A1on1-conversation/activities' && json(req).text === '*Deploy* finished')
      return { status: 200, json: { id: '1764144000002' } };
    return bad(req.url);
  });
  expect(result).toMatchObject({ outcome: 'sent', providerMessageId: '1764144000002' });
});

describe('the other addressing modes', () => {
  const with_ = (
    provider: string,
    settings: (base: string) => Record<string, unknown>,
    channelData?: (base: string) => Record<string, unknown>,
  ) => ({
    ...rows.find((r) => r.provider === provider)!,
    settings,
    channelData,
  });

  it('discord: a channel connection is posted with the bot token', async () => {
    const row = with_(
      'discord',
      () => ({ bot_token: 'discord-bot-token-0123456789' }),
      () => ({ connections: [{ channel_id: '1100000000000000002' }] }),
    );
    const result = await run(row, (req) =>
      req.url === '/channels/1100000000000000002/messages' && req.headers.authorization === 'Bot discord-bot-token-0123456789'
        ? { status: 200, json: { id: '1100000000000000777', channel_id: '1100000000000000002' } }
        : { status: 401, json: { message: '401: Unauthorized', code: 0 } },
    );
    expect(result).toMatchObject({ outcome: 'sent', providerMessageId: '1100000000000000777' });
    expect(JSON.stringify(result.logs)).not.toContain('discord-bot-token-0123456789');
  });

  it('mattermost: a channel connection is posted to the server API with the bot token', async () => {
    const row = with_(
      'mattermost',
      (base) => ({ server_url: base, bot_token: 'mm-bot-token-0123456789' }),
      () => ({ connections: [{ channel_id: 'town-square-id' }] }),
    );
    const result = await run(row, (req) =>
      req.url === '/api/v4/posts' &&
      req.headers.authorization === 'Bearer mm-bot-token-0123456789' &&
      json(req).channel_id === 'town-square-id'
        ? { status: 201, json: { id: 'post-id-1', channel_id: 'town-square-id', message: json(req).message } }
        : bad(req.url),
    );
    expect(result).toMatchObject({ outcome: 'sent', providerMessageId: 'post-id-1' });
  });

  it("onesignal: target external_id addresses the recipient's id, no channel data needed", async () => {
    const row = with_('onesignal', () => ({
      app_id: '5eb5a37e-b458-11e3-ac11-000c2940e62c',
      rest_api_key: 'os_v2_app_restkey0123456789',
      target: 'external_id',
    }));
    const result = await run(row, (req) =>
      JSON.stringify(json(req).include_aliases) === JSON.stringify({ external_id: ['ada'] }) && json(req).target_channel === 'push'
        ? { status: 200, json: { id: 'c0ffee00-1e94-4366-bbd9-db8f3429292b' } }
        : bad(req.body),
    );
    expect(result).toMatchObject({ outcome: 'sent', providerMessageId: 'c0ffee00-1e94-4366-bbd9-db8f3429292b' });
  });

  it('telegram: a 429 carries its retry_after as the wait', async () => {
    const row = rows.find((r) => r.provider === 'telegram')!;
    const result = await run(row, () => ({
      status: 429,
      json: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } },
    }));
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, retryAfterMs: 7000 });
  });
});

it('ms-teams: signs in once for several messages, and again after the connector refuses the token', async () => {
  const row = rows.find((r) => r.provider === 'ms-teams')!;
  const tokenCalls = () => peer.requests.filter((r) => r.url.endsWith('/oauth2/v2.0/token')).length;
  let calls = 0;
  const first = await run(row, row.success);
  calls += tokenCalls();
  const second = await run(row, row.success);
  calls += tokenCalls();
  expect([first.outcome, second.outcome]).toEqual(['sent', 'sent']);
  expect(calls).toBeLessThanOrEqual(1);
  const refused = await run(row, () => ({ status: 401, json: { message: 'Authorization has been denied for this request.' } }));
  expect(refused).toMatchObject({ outcome: 'failed', retryable: true, code: 'http_401' });
  const again = await run(row, row.success);
  expect(again.outcome).toBe('sent');
  expect(tokenCalls()).toBe(1);
});

describe('settings schemas', () => {
  it.each([
    ['ses', 'email', ['access_key_id', 'secret_access_key', 'region']],
    ['sendgrid', 'email', ['api_key']],
    ['mailgun', 'email', ['api_key', 'domain']],
    ['postmark', 'email', ['server_token']],
    ['vonage', 'sms', ['api_key', 'api_secret', 'from']],
    ['messagebird', 'sms', ['access_key', 'originator']],
    ['sns', 'sms', ['access_key_id', 'secret_access_key', 'region']],
    ['expo', 'push', []],
    ['onesignal', 'push', ['app_id', 'rest_api_key']],
    ['discord', 'chat', []],
    ['mattermost', 'chat', []],
    ['telegram', 'chat', ['bot_token']],
    ['ms-teams-webhook', 'chat', []],
    ['ms-teams', 'chat', ['app_id', 'app_password']],
  ] as const)('%s (%s) requires %j', (provider, _type, required) => {
    expect(registry.settingsIssues({ provider, settings: {} })).toEqual(required.map((field) => ({ field, message: 'is required' })));
  });

  it('names the setting that is wrong', () => {
    expect(registry.settingsIssues({ provider: 'ses', settings: { ...aws, region: 'mars', base_url: 'ftp://x' } })).toEqual([
      { field: 'base_url', message: 'must be an absolute http(s) URL' },
      { field: 'region', message: 'must be an AWS region such as us-east-1' },
    ]);
    expect(registry.settingsIssues({ provider: 'mailgun', settings: { api_key: 'k', domain: 'd', region: 'asia' } })).toEqual([
      { field: 'region', message: 'must be us or eu' },
    ]);
    expect(registry.settingsIssues({ provider: 'push_fcm', settings: {} })).toBeUndefined();
  });
});
