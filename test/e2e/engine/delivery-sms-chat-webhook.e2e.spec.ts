import Knock from '@knocklabs/node';
import { form, json, startHttpPeer, type Peer } from '@notify/testing/peers';
import { slackPosted, twilioMessageCreated, webhookReceiverAccepts } from '@notify/testing/provider-peers';
import {
  deliveryLogs,
  messageEvents,
  messageOf,
  messageStreamTypes,
  messageWithStatus,
  putChannel,
  putWorkflow,
  secretsAt,
  secretsInMessage,
} from '../../support/delivery';
import { startTestApp, TestApp } from '../../support/test-app';

/** SMS over a Twilio-like API, chat over Slack's Web API and incoming webhooks, and signed webhooks. */
describe('delivery: sms, chat and webhook', () => {
  let t: TestApp;
  let knock: Knock;
  let twilio: Peer;
  let slack: Peer;
  let slackHook: Peer;
  let receiver: Peer;
  const authToken = 'twilio-auth-token-e2e-51c0ffee';
  const accountSid = 'AC0123456789abcdef0123456789abcdef';
  const connectionToken = 'xoxb-e2e-connection-token-77aa';
  const hookSecret = 'T0001/B0002/e2eHookSecretSegment99';
  const signingSecret = 'whsec_e2e_0d9c8b7a6f5e4d3c';
  const partnerKey = 'partner-api-key-e2e-4455';
  let slackChannelId: string;
  let slackHookChannelId: string;

  beforeAll(async () => {
    twilio = await startHttpPeer(twilioMessageCreated);
    slack = await startHttpPeer(slackPosted);
    slackHook = await startHttpPeer(() => ({ status: 200, text: 'ok' }));
    receiver = await startHttpPeer(() => ({ status: 202, json: { received: true } }));
    t = await startTestApp({ env: { DELIVERY_RETRY_BASE_MS: '200', DELIVERY_RETRY_MAX_MS: '1000', DELIVERY_MAX_ATTEMPTS: '3' } });
    knock = t.knock();
    await putChannel(t, 'sms-twilio', {
      type: 'sms',
      provider: 'twilio',
      provider_settings: { account_sid: accountSid, auth_token: authToken, from: '+15005550006', base_url: twilio.url },
    });
    slackChannelId = await putChannel(t, 'chat-slack', { type: 'chat', provider: 'slack', provider_settings: { base_url: slack.url } });
    slackHookChannelId = await putChannel(t, 'chat-slack-hook', { type: 'chat', provider: 'slack-webhook' });
    await putChannel(t, 'hooks', { type: 'http', provider: 'webhook', channel_settings: { signing_secret: signingSecret } });
    const variable = await t.http('PUT', '/v1/variables/partner_key', {
      key: t.serviceToken,
      body: { variable: { value: partnerKey, type: 'secret' } },
    });
    expect(variable.status).toBe(200);
    await knock.users.update('ada', { name: 'Ada', email: 'ada@example.org', phone_number: '+15558675310' });
    await knock.users.setChannelData('ada', slackChannelId, {
      data: { connections: [{ channel_id: 'C0123', access_token: connectionToken }] },
    });
    await knock.users.setChannelData('ada', slackHookChannelId, {
      data: { connections: [{ incoming_webhook: { url: `${slackHook.url}/services/${hookSecret}` } }] },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([twilio, slack, slackHook, receiver].map((p) => p?.close()));
  });

  it('sends an SMS through Twilio: form post with Basic auth, sent with the SID, token redacted', async () => {
    await putWorkflow(t, 'sms-code', [
      {
        type: 'channel',
        ref: 'sms',
        channel_key: 'sms-twilio',
        template: { text_body: 'Hi {{ recipient.name }}, your code is {{ data.code }}' },
      },
    ]);
    const { workflow_run_id } = await knock.workflows.trigger('sms-code', { recipients: ['ada'], data: { code: '123456' } });
    const created = await messageOf(t, workflow_run_id, 'sms');
    const message = await messageWithStatus(t, created.id, ['sent']);

    expect(twilio.requests).toHaveLength(1);
    expect(twilio.requests[0].url).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
    expect(twilio.requests[0].headers.authorization).toBe(`Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`);
    expect(form(twilio.requests[0])).toEqual({ To: '+15558675310', From: '+15005550006', Body: 'Hi Ada, your code is 123456' });
    expect(message).toMatchObject({
      recipient_snapshot: { phone_number: '+15558675310' },
      content: { channel_type: 'sms', to: '+15558675310', body: 'Hi Ada, your code is 123456' },
    });
    const [log] = await deliveryLogs(t, message.id);
    expect(log).toMatchObject({ service_name: 'twilio', response: { status: 201, body: { sid: expect.stringMatching(/^SM/) } } });
    const sent = (await messageEvents(t, message.id)).find((e) => e.type === 'message.sent');
    expect(sent?.data.provider_message_id).toBe(log.response.body.sid);
    expect(await secretsAt(t, [authToken])).toEqual([]);
  });

  it('posts to Slack with the connection token, and to an incoming webhook, keeping both secrets out of the records', async () => {
    const template = { markdown_body: '*{{ data.title }}* finished', summary: '{{ data.title }} finished' };
    await putWorkflow(t, 'deploys', [
      { type: 'channel', ref: 'slack', channel_key: 'chat-slack', template },
      {
        type: 'channel',
        ref: 'hook',
        channel_key: 'chat-slack-hook',
        template: { ...template, json_body: '{"blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "*{{ data.title }}*"}}]}' },
      },
    ]);
    const { workflow_run_id } = await knock.workflows.trigger('deploys', { recipients: ['ada'], data: { title: 'Deploy 42' } });
    const viaApi = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'slack')).id, ['sent']);
    const viaHook = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'hook')).id, ['sent']);

    expect(slack.requests).toHaveLength(1);
    expect(slack.requests[0].url).toBe('/chat.postMessage');
    expect(slack.requests[0].headers.authorization).toBe(`Bearer ${connectionToken}`);
    expect(json(slack.requests[0])).toEqual({ channel: 'C0123', text: '*Deploy 42* finished', mrkdwn: true });
    expect(slackHook.requests).toHaveLength(1);
    expect(slackHook.requests[0].url).toBe(`/services/${hookSecret}`);
    expect(json(slackHook.requests[0])).toEqual({
      text: 'Deploy 42 finished',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Deploy 42*' } }],
    });

    expect(viaApi.content).toMatchObject({
      channel_type: 'chat',
      text: '*Deploy 42* finished',
      summary: 'Deploy 42 finished',
      connections: [{ channel_id: 'C0123' }],
    });
    expect(viaHook.content).toMatchObject({ channel_type: 'chat', json: { blocks: [expect.objectContaining({ type: 'section' })] } });
    expect((await deliveryLogs(t, viaApi.id))[0]).toMatchObject({ service_name: 'slack', response: { status: 200, body: { ok: true } } });
    // The channel data keeps them (the recipient's own record); what the messages recorded does not.
    expect(viaHook.content.connections).toEqual([{ incoming_webhook: { url: `${slackHook.url}/services/T0001/B0002/********` } }]);
    for (const id of [viaApi.id, viaHook.id])
      expect(await secretsInMessage(t, id, [connectionToken, hookSecret.split('/')[2]])).toEqual([]);
  });

  it('delivers a signed webhook (and an in-app message): delivered, not sent; the receiver verifies the signature; secrets stay out of the records', async () => {
    await putWorkflow(t, 'partner-hook', [
      { type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Order shipped' } },
      {
        type: 'channel',
        ref: 'hook',
        channel_key: 'hooks',
        template: {
          url: `${receiver.url}/notify/{{ recipient.id }}`,
          method: 'post',
          headers: [
            { key: 'X-Api-Key', value: '{{ vars.partner_key }}' },
            { key: 'Content-Type', value: 'application/json' },
          ],
          query_params: [{ key: 'source', value: 'notify' }],
          body: '{"event": "{{ data.event }}", "user": "{{ recipient.id }}"}',
        },
      },
    ]);
    const { workflow_run_id } = await knock.workflows.trigger('partner-hook', { recipients: ['ada'], data: { event: 'order.shipped' } });
    // The in-app message next to it is delivered at once, without a provider attempt.
    const feed = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'feed')).id, ['delivered']);
    expect((await messageEvents(t, feed.id)).map((e) => e.type)).toEqual(['message.created', 'message.delivered']);
    // Delivered in the event that creates it (ADR 0233).
    expect(await messageStreamTypes(t, feed.id)).toEqual(['MessageCreated']);
    const created = await messageOf(t, workflow_run_id, 'hook');
    const message = await messageWithStatus(t, created.id, ['delivered']);

    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/notify/ada?source=notify');
    expect(req.headers['x-api-key']).toBe(partnerKey);
    expect(json(req)).toEqual({ event: 'order.shipped', user: 'ada' });
    expect(req.headers['x-notify-idempotency-key']).toBe(message.id);
    expect(webhookReceiverAccepts(req, signingSecret)).toBe(true);

    expect(message.content).toMatchObject({
      channel_type: 'http',
      method: 'POST',
      url: `${receiver.url}/notify/ada`,
      query: { source: 'notify' },
    });
    expect((await messageEvents(t, message.id)).map((e) => e.type)).toEqual(['message.created', 'message.delivered']);
    expect(await messageStreamTypes(t, message.id)).toEqual([
      'MessageCreated',
      'MessageDeliveryAttemptStarted',
      'TimerScheduled',
      'MessageDeliveryAttemptCompleted',
      'MessageDelivered',
    ]);
    const [log] = await deliveryLogs(t, message.id);
    expect(log).toMatchObject({
      service_name: 'webhook',
      request: { method: 'POST' },
      response: { status: 202, body: { received: true } },
    });
    expect(await secretsAt(t, [signingSecret])).toEqual([]);
    // A secret variable rendered into a header is in the message content (see docs/adr/0104); the logs redact it.
    expect(JSON.stringify(await deliveryLogs(t, message.id))).not.toContain(partnerKey);
  });
});
