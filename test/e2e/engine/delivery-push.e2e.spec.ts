import Knock from '@knocklabs/node';
import { json, startHttp2Peer, startHttpPeer, type Peer, type PeerResponse } from '@notify/testing/peers';
import { apnsApi, fcmApi, fcmError, fcmSent } from '@notify/testing/provider-peers';
import {
  deliveryLogs,
  eventually,
  messageEvents,
  messageOf,
  messageWithStatus,
  pemBody,
  pushKeys,
  putChannel,
  putWorkflow,
  secretsAt,
} from '../../support/delivery';
import { startTestApp, TestApp } from '../../support/test-app';

/** Push over FCM HTTP v1 (with Google's OAuth2 token exchange) and APNs over HTTP/2; dead tokens are dropped. */
describe('delivery: push', () => {
  let t: TestApp;
  let knock: Knock;
  let fcm: Peer;
  let apns: Peer;
  const keys = pushKeys();
  const clientEmail = 'notify-push@demo-project.iam.gserviceaccount.com';
  const issued: string[] = [];
  let fcmAnswer: (token: string) => PeerResponse = () => fcmSent('demo-project');
  let apnsAnswer: (token: string) => PeerResponse = () => ({ status: 200, text: '' });
  let fcmChannelId: string;
  let apnsChannelId: string;

  const template = {
    title: 'Order {{ data.order_id }} shipped',
    text_body: 'Hi {{ recipient.name }}, it is on its way',
    settings: { delivery_type: 'content', payload_overrides: '{"order_id": "{{ data.order_id }}", "count": {{ data.count }}}' },
  };

  beforeAll(async () => {
    fcm = await startHttpPeer(() => ({ status: 500, json: {} }));
    fcm.respond = fcmApi({
      tokenUrl: `${fcm.url}/token`,
      publicKey: keys.fcmPublicKey,
      clientEmail,
      keyId: 'key-1',
      issued,
      answerFor: (token) => fcmAnswer(token),
    });
    apns = await startHttp2Peer(
      apnsApi({ publicKey: keys.apnsPublicKey, keyId: 'ABC123DEFG', teamId: 'DEF123GHIJ', answerFor: (token) => apnsAnswer(token) }),
    );
    t = await startTestApp({ env: { DELIVERY_RETRY_BASE_MS: '200', DELIVERY_RETRY_MAX_MS: '1000', DELIVERY_MAX_ATTEMPTS: '3' } });
    knock = t.knock();
    fcmChannelId = await putChannel(t, 'push-fcm', {
      type: 'push',
      provider: 'fcm',
      provider_settings: {
        base_url: fcm.url,
        service_account: {
          type: 'service_account',
          project_id: 'demo-project',
          private_key_id: 'key-1',
          private_key: keys.fcmPrivateKeyPem,
          client_email: clientEmail,
          token_uri: `${fcm.url}/token`,
        },
      },
    });
    apnsChannelId = await putChannel(t, 'push-apns', {
      type: 'push',
      provider: 'apns',
      provider_settings: {
        base_url: apns.url,
        key_id: 'ABC123DEFG',
        team_id: 'DEF123GHIJ',
        private_key: keys.apnsPrivateKeyPem,
        bundle_id: 'com.example.shop',
      },
    });
    await putWorkflow(t, 'shipped', [
      { type: 'channel', ref: 'android', channel_key: 'push-fcm', template },
      { type: 'channel', ref: 'ios', channel_key: 'push-apns', template },
    ]);
    await putWorkflow(t, 'sync', [
      {
        type: 'channel',
        ref: 'android',
        channel_key: 'push-fcm',
        template: { title: '', text_body: '', settings: { delivery_type: 'silent', payload_overrides: '{"sync": "inbox"}' } },
      },
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await fcm?.close();
    await apns?.close();
  });
  beforeEach(() => {
    fcm.requests.length = 0;
    apns.requests.length = 0;
    fcmAnswer = () => fcmSent('demo-project');
    apnsAnswer = () => ({ status: 200, text: '' });
  });

  it('sends to every device over FCM and APNs with the rendered title, body and data; keys stay out of the records', async () => {
    await knock.users.update('ada', { name: 'Ada' });
    await knock.users.setChannelData('ada', fcmChannelId, { data: { tokens: ['fcm-A'], devices: [{ token: 'fcm-B', locale: 'en' }] } });
    await knock.users.setChannelData('ada', apnsChannelId, { data: { tokens: ['aaaa1111'] } });
    const { workflow_run_id } = await knock.workflows.trigger('shipped', { recipients: ['ada'], data: { order_id: 'o-7', count: 2 } });
    const android = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'android')).id, ['sent']);
    const ios = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'ios')).id, ['sent']);

    const sends = fcm.requests.filter((r) => r.url !== '/token');
    expect(fcm.requests.filter((r) => r.url === '/token')).toHaveLength(1);
    expect(sends.map((r) => json(r).message).sort((a, b) => a.token.localeCompare(b.token))).toEqual(
      ['fcm-A', 'fcm-B'].map((token) => ({
        token,
        notification: { title: 'Order o-7 shipped', body: 'Hi Ada, it is on its way' },
        data: { order_id: 'o-7', count: '2', notify_message_id: android.id },
      })),
    );
    expect(apns.requests).toHaveLength(1);
    expect(apns.requests[0].url).toBe('/3/device/aaaa1111');
    expect(apns.requests[0].headers['apns-topic']).toBe('com.example.shop');
    expect(json(apns.requests[0])).toEqual({
      order_id: 'o-7',
      count: 2,
      notify_message_id: ios.id,
      aps: { alert: { title: 'Order o-7 shipped', body: 'Hi Ada, it is on its way' }, sound: 'default' },
    });

    expect(android).toMatchObject({
      recipient_snapshot: { tokens: ['fcm-A', 'fcm-B'] },
      content: {
        channel_type: 'push',
        tokens: ['fcm-A', 'fcm-B'],
        title: 'Order o-7 shipped',
        body: 'Hi Ada, it is on its way',
        data: { order_id: 'o-7', count: 2 },
      },
    });
    expect((await messageEvents(t, android.id)).map((e) => e.type)).toEqual(['message.created', 'message.sent']);
    const logs = await deliveryLogs(t, android.id);
    expect(logs).toHaveLength(3); // the token exchange and one send per device
    const exchange = logs.find((l) => l.request.url === `${fcm.url}/token`);
    expect(exchange).toMatchObject({
      service_name: 'fcm',
      request: { body: { assertion: '[REDACTED]' } },
      response: { status: 200, body: { access_token: '[REDACTED]' } },
    });
    expect((await deliveryLogs(t, ios.id))[0]).toMatchObject({ service_name: 'apns', response: { status: 200 } });
    expect(
      await secretsAt(t, [...pemBody(keys.fcmPrivateKeyPem).slice(1, 4), ...pemBody(keys.apnsPrivateKeyPem).slice(0, 2), ...issued]),
    ).toEqual([]);
  });

  it('sends a silent (data-only) push when the template says so', async () => {
    await knock.users.update('grace', { name: 'Grace' });
    await knock.users.setChannelData('grace', fcmChannelId, { data: { tokens: ['fcm-G'] } });
    const { workflow_run_id } = await knock.workflows.trigger('sync', { recipients: ['grace'] });
    await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'android')).id, ['sent']);
    const [send] = fcm.requests.filter((r) => r.url !== '/token');
    expect(json(send).message).toMatchObject({ token: 'fcm-G', data: { sync: 'inbox' } });
    expect(json(send).message.notification).toBeUndefined();
  });

  it('drops the tokens FCM reports UNREGISTERED and APNs answers 410 from the recipient’s channel data', async () => {
    await knock.users.update('linus', { name: 'Linus' });
    await knock.users.setChannelData('linus', fcmChannelId, {
      data: { tokens: ['fcm-live', 'fcm-dead'], devices: [{ token: 'fcm-dead-device', locale: 'fi' }] },
    });
    await knock.users.setChannelData('linus', apnsChannelId, { data: { tokens: ['bbbb2222', 'cccc3333'] } });
    fcmAnswer = (token) =>
      token.startsWith('fcm-dead')
        ? fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.')
        : fcmSent('demo-project');
    apnsAnswer = (token) =>
      token === 'cccc3333' ? { status: 410, json: { reason: 'Unregistered', timestamp: Date.now() } } : { status: 200, text: '' };

    const { workflow_run_id } = await knock.workflows.trigger('shipped', { recipients: ['linus'], data: { order_id: 'o-8', count: 1 } });
    const android = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'android')).id, ['sent']);
    await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'ios')).id, ['sent']);

    const fcmData = await eventually(async () => {
      const data = (await knock.users.getChannelData('linus', fcmChannelId)).data as { tokens?: string[]; devices?: unknown[] };
      return data.tokens?.length === 1 ? data : undefined;
    });
    // Answered in both forms (ADR 0117): the one token left, as a token and as a device.
    expect(fcmData).toEqual({ tokens: ['fcm-live'], devices: [{ token: 'fcm-live', locale: null, timezone: null }] });
    const apnsData = await eventually(async () => {
      const data = (await knock.users.getChannelData('linus', apnsChannelId)).data as { tokens?: string[] };
      return data.tokens?.length === 1 ? data : undefined;
    });
    expect(apnsData).toEqual({ tokens: ['bbbb2222'], devices: [{ token: 'bbbb2222', locale: null, timezone: null }] });
    const [{ stream_id }] = await t.sql<{ stream_id: string }>(
      "SELECT DISTINCT stream_id FROM es_events WHERE stream_id LIKE $1 AND event_type = 'MessageDeliveryAttemptCompleted'",
      [`message-%-${android.id}`],
    );
    // Device tokens are personal data: sealed in the log (ADR 0180), clear when read through the store.
    const attempt = (await t.store.readStream(stream_id)).find((e) => e.type === 'MessageDeliveryAttemptCompleted')!;
    expect((attempt.data as { invalid_tokens: string[] }).invalid_tokens.sort()).toEqual(['fcm-dead', 'fcm-dead-device']);

    // The next message goes only to the device that is left.
    fcm.requests.length = 0;
    const again = await knock.workflows.trigger('shipped', { recipients: ['linus'], data: { order_id: 'o-9', count: 1 } });
    await messageWithStatus(t, (await messageOf(t, again.workflow_run_id, 'android')).id, ['sent']);
    expect(fcm.requests.filter((r) => r.url !== '/token').map((r) => json(r).message.token)).toEqual(['fcm-live']);
  });

  it('bounces the message when every device is gone, and removes them all', async () => {
    await knock.users.update('gone', { name: 'Gone' });
    await knock.users.setChannelData('gone', fcmChannelId, { data: { tokens: ['fcm-dead-1'] } });
    fcmAnswer = () => fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.');
    const { workflow_run_id } = await knock.workflows.trigger('shipped', { recipients: ['gone'], data: { order_id: 'o-1', count: 1 } });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'android')).id, ['undelivered', 'bounced']);
    expect(message).toMatchObject({ status: 'bounced', attempts: 1 });
    expect((await messageEvents(t, message.id)).find((e) => e.type === 'message.bounced')?.data.reason).toMatch(
      /UNREGISTERED|unregistered/,
    );
    await eventually(
      async () => ((await knock.users.getChannelData('gone', fcmChannelId)).data as { tokens: string[] }).tokens.length === 0,
    );
  });
});
