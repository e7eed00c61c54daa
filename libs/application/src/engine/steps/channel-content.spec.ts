import { TemplateContext, TemplateEngine, TemplateResources } from '@notify/templating';
import { channelDataRef, channelDataTrace, destinationFor, renderChannelContent } from './channel-content';

const engine = new TemplateEngine();
const resources: TemplateResources = { partial: async () => undefined };
const context: TemplateContext = {
  recipient: { id: 'ada', name: 'Ada, Countess', email: 'ada@example.org', phone_number: '+15550001' },
  actor: null,
  tenant: { id: 'acme', name: 'Acme' },
  data: { order: 'o-7', count: 2 },
  vars: {},
  workflow: { key: 'w' },
};
const render = (
  type: string,
  template: Record<string, unknown>,
  destination: Record<string, unknown>,
  settings: Record<string, unknown> = {},
  defaultFrom?: string,
) => renderChannelContent(engine, { type, settings, defaultFrom }, template, destination, context, resources);

describe('destinationFor', () => {
  it('needs an address, unless the channel settings name one', () => {
    expect(destinationFor('email', 'smtp', { email: 'a@b.c' }, undefined)).toEqual({ destination: { email: 'a@b.c' } });
    expect(destinationFor('email', 'smtp', {}, undefined)).toEqual({ missing: 'recipient_missing_email' });
    expect(destinationFor('email', 'smtp', {}, undefined, { to_address: 'ops@b.c' })).toEqual({ destination: {} });
    expect(destinationFor('sms', 'twilio', { phone_number: ' ' }, undefined)).toEqual({ missing: 'recipient_missing_phone_number' });
    expect(destinationFor('sms', 'twilio', {}, undefined, { to_number: '{{ data.phone }}' })).toEqual({ destination: {} });
  });

  it('takes push tokens from tokens and devices, once each', () => {
    expect(destinationFor('push', 'fcm', {}, { tokens: ['a', 'b'], devices: [{ token: 'b' }, { token: 'c' }, { locale: 'x' }] })).toEqual({
      destination: { tokens: ['a', 'b', 'c'] },
    });
    expect(destinationFor('push', 'fcm', {}, { tokens: [] })).toEqual({ missing: 'recipient_missing_push_tokens' });
  });

  it('takes OneSignal player ids for onesignal', () => {
    const ids = ['1dd608f2-c6a1-11e3-851d-000c2940e62c'];
    expect(destinationFor('push', 'onesignal', {}, { player_ids: ids })).toEqual({ destination: { player_ids: ids } });
    expect(destinationFor('push', 'onesignal', {}, { player_ids: [] })).toEqual({ missing: 'recipient_missing_push_tokens' });
  });

  it('keeps Teams channel and user connections for ms-teams, incoming webhooks for ms-teams-webhook', () => {
    const data = {
      connections: [
        { ms_teams_channel_id: '0c2e6a4d-1111-4111-8111-1111111111c1' },
        { incoming_webhook: { url: 'https://acme.webhook.office.com/webhookb2/abc/IncomingWebhook/secretpart' } },
      ],
    };
    expect(destinationFor('chat', 'ms-teams', {}, data)).toEqual({ destination: { connections: [data.connections[0]] } });
    expect(destinationFor('chat', 'ms-teams-webhook', {}, data)).toEqual({
      destination: {
        connections: [{ incoming_webhook: { url: 'https://acme.webhook.office.com/webhookb2/abc/IncomingWebhook/********' } }],
      },
    });
  });

  it('keeps the chat connections the provider can post to, without their credentials', () => {
    const data = {
      token: { access_token: 'xoxb-top' },
      connections: [
        { channel_id: 'C1', access_token: 'xoxb-secret' },
        { user_id: 'U1' },
        { incoming_webhook: { url: 'https://hooks.slack.com/services/T1/B1/secretpart' } },
      ],
    };
    expect(destinationFor('chat', 'slack', {}, data)).toEqual({
      destination: { connections: [{ channel_id: 'C1', access_token: null }, { user_id: 'U1' }] },
    });
    expect(destinationFor('chat', 'slack-webhook', {}, data)).toEqual({
      destination: { connections: [{ incoming_webhook: { url: 'https://hooks.slack.com/services/T1/B1/********' } }] },
    });
    expect(destinationFor('chat', 'slack', {}, { token: { access_token: 'xoxb-top' }, connections: [] })).toEqual({
      missing: 'recipient_missing_chat_connections',
    });
    expect(JSON.stringify(destinationFor('chat', 'slack-webhook', {}, data))).not.toContain('secretpart');
  });
});

describe('channelDataTrace (ADR 0239)', () => {
  it('references the push tokens used, never copying them', () => {
    const trace = channelDataTrace('ch1', 'push', 'fcm', {}, { tokens: ['tok-a', 'tok-b', 'tok-a'], devices: [{ token: 'tok-c' }] });
    expect(trace).toEqual({
      channel_id: 'ch1',
      kind: 'tokens',
      present: true,
      source: 'channel_data',
      count: 3,
      refs: [channelDataRef('tok-a'), channelDataRef('tok-b'), channelDataRef('tok-c')],
    });
    expect(trace.refs[0]).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(JSON.stringify(trace)).not.toContain('tok-');
    expect(channelDataTrace('ch1', 'push', 'onesignal', {}, { player_ids: ['p1'] })).toMatchObject({ kind: 'player_ids', count: 1 });
  });

  it('names which chat connection was used by the field that addresses it, and only those the provider can use', () => {
    const data = {
      connections: [
        { channel_id: 'C123', access_token: 'xoxb-secret' },
        { incoming_webhook: { url: 'https://hooks.slack.com/services/T/B/secret' } },
      ],
    };
    const slack = channelDataTrace('ch2', 'chat', 'slack', {}, data);
    expect(slack).toMatchObject({ kind: 'connections', present: true, count: 1, refs: [`channel_id:${channelDataRef('C123')}`] });
    const webhook = channelDataTrace('ch2', 'chat', 'slack-webhook', {}, data);
    expect(webhook.refs).toEqual([`incoming_webhook:${channelDataRef('https://hooks.slack.com/services/T/B/secret')}`]);
    expect(JSON.stringify([slack, webhook])).not.toMatch(/C123|secret/);
  });

  it('says what is missing, and where an address came from without copying it', () => {
    expect(channelDataTrace('ch3', 'push', 'apns', {}, undefined)).toEqual({
      channel_id: 'ch3',
      kind: 'tokens',
      present: false,
      source: 'none',
      count: 0,
      refs: [],
    });
    expect(channelDataTrace('ch4', 'email', 'smtp', { email: 'ada@example.org' }, undefined)).toMatchObject({
      kind: 'email',
      present: true,
      source: 'recipient',
      refs: [],
    });
    expect(channelDataTrace('ch4', 'email', 'smtp', {}, undefined, { to_address: 'ops@example.org' })).toMatchObject({
      present: true,
      source: 'override',
    });
    expect(channelDataTrace('ch5', 'sms', 'twilio', {}, undefined)).toMatchObject({ kind: 'phone_number', present: false });
    expect(channelDataTrace('ch6', 'in_app_feed', 'knock', {}, undefined)).toMatchObject({ kind: 'none', present: true });
  });
});

describe('renderChannelContent', () => {
  it('renders email addresses from the channel settings as Liquid, quoting a display name that needs it', async () => {
    const result = await render(
      'email',
      { subject: 'Order {{ data.order }}', html_body: '<p>Hi {{ recipient.name }}</p>', settings: {} },
      { email: 'ada@example.org' },
      {
        from_address: 'orders@{{ tenant.id }}.example',
        from_name: '{{ tenant.name }}, Inc',
        reply_to_address: 'help@acme.example',
        bcc_address: 'audit@acme.example',
      },
    );
    expect(result).toEqual({
      ok: true,
      content: {
        channel_type: 'email',
        from: '"Acme, Inc" <orders@acme.example>',
        to: 'ada@example.org',
        cc: null,
        bcc: 'audit@acme.example',
        reply_to: 'help@acme.example',
        subject: 'Order o-7',
        html_body: '<p>Hi Ada, Countess</p>',
        text_body: 'Hi Ada, Countess',
      },
    });
  });

  it('renders an email made of visual blocks (not an empty body)', async () => {
    const result = await render(
      'email',
      {
        subject: 'Order {{ data.order }}',
        visual_blocks: [
          { type: 'markdown', content: 'Hi **{{ recipient.name }}**' },
          { type: 'button_set', buttons: [{ label: 'Track', action: 'https://shop.example/{{ data.order }}', variant: 'solid' }] },
        ],
        settings: {},
      },
      { email: 'ada@example.org' },
    );
    if (!result.ok) throw new Error(JSON.stringify(result));
    const content = result.content as { html_body: string; text_body: string };
    expect(content.html_body).toContain('<strong>Ada, Countess</strong>');
    expect(content.html_body).toContain('href="https://shop.example/o-7"');
    expect(content.text_body).toContain('Ada, Countess');
  });

  it("falls back to the provider's from, and takes to_address over the recipient's email", async () => {
    const result = await render(
      'email',
      { subject: 's', html_body: 'b', settings: {} },
      {},
      { to_address: 'ops@acme.example' },
      'Acme <hi@acme.example>',
    );
    expect(result).toMatchObject({ ok: true, content: { from: 'Acme <hi@acme.example>', to: 'ops@acme.example' } });
  });

  it('renders push payload_overrides into data, and marks a silent push', async () => {
    const content = await render(
      'push',
      {
        title: 'T',
        text_body: 'B',
        settings: { delivery_type: 'silent', payload_overrides: '{"order": "{{ data.order }}", "n": {{ data.count }}}' },
      },
      { tokens: ['t'] },
    );
    expect(content).toEqual({
      ok: true,
      content: { channel_type: 'push', tokens: ['t'], title: 'T', body: 'B', data: { order: 'o-7', n: 2 }, silent: true },
    });
    const broken = await render(
      'push',
      { title: 'T', text_body: 'B', settings: { delivery_type: 'content', payload_overrides: '["not an object"]' } },
      { tokens: ['t'] },
    );
    expect(broken).toEqual({ ok: false, reason: 'template_render_error: settings.payload_overrides: must render to a JSON object' });
  });

  it('renders a chat summary and JSON body', async () => {
    const content = await render(
      'chat',
      { markdown_body: '*{{ data.order }}*', summary: 'Order {{ data.order }}', json_body: '{"blocks": []}' },
      { connections: [{ channel_id: 'C1' }] },
    );
    expect(content).toEqual({
      ok: true,
      content: { channel_type: 'chat', connections: [{ channel_id: 'C1' }], text: '*o-7*', summary: 'Order o-7', json: { blocks: [] } },
    });
  });

  it('takes an SMS number from the template settings', async () => {
    const content = await render('sms', { text_body: 'Hi', settings: { to_number: '+1555{{ data.count }}' } }, {});
    expect(content).toEqual({ ok: true, content: { channel_type: 'sms', to: '+15552', body: 'Hi' } });
  });
});
