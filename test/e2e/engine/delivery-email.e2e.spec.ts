import Knock from '@knocklabs/node';
import { json, startHttpPeer, startSmtpPeer, type Peer, type SmtpPeer } from '@notify/testing/peers';
import { resendApi } from '@notify/testing/provider-peers';
import {
  eventually,
  deliveryLogs,
  messageEvents,
  messageOf,
  messageStreamTypes,
  messageWithStatus,
  putChannel,
  putWorkflow,
  secretsAt,
} from '../../support/delivery';
import { startTestApp, TestApp } from '../../support/test-app';

/** Email steps delivered over a real SMTP server and a Resend-like HTTP API. */
describe('delivery: email', () => {
  let t: TestApp;
  let knock: Knock;
  let smtp: SmtpPeer;
  let resend: Peer;
  const smtpPass = 'smtp-pass-7c1e9f0a2b3d4e5f';
  const resendKey = 're_live_e2e_3f9a1c7d5b2e';

  const template = {
    subject: 'Welcome, {{ recipient.name }}',
    html_body: '<p>Hello {{ recipient.name }}: {{ data.note }}</p>',
    text_body: 'Hello {{ recipient.name }}: {{ data.note }}',
    settings: {},
  };

  beforeAll(async () => {
    smtp = await startSmtpPeer({ user: 'mailer', pass: smtpPass });
    resend = await startHttpPeer(resendApi(resendKey));
    t = await startTestApp({ env: { DELIVERY_RETRY_BASE_MS: '200', DELIVERY_RETRY_MAX_MS: '1000', DELIVERY_MAX_ATTEMPTS: '3' } });
    knock = t.knock();
    await putChannel(t, 'mail-smtp', {
      type: 'email',
      provider: 'smtp',
      provider_settings: { host: '127.0.0.1', port: smtp.port, auth: { user: 'mailer', pass: smtpPass }, ignore_tls: true },
      channel_settings: { from_address: 'hello@acme.example', from_name: 'Acme', reply_to_address: 'support@acme.example' },
    });
    // The API key lives in a secret variable that the channel references.
    expect(
      (await t.http('PUT', '/v1/variables/resend_key', { key: t.serviceToken, body: { variable: { value: resendKey, type: 'secret' } } }))
        .status,
    ).toBe(200);
    await putChannel(t, 'mail-resend', {
      type: 'email',
      provider: 'resend',
      provider_settings: { api_key: '{{ vars.resend_key }}', base_url: resend.url },
      channel_settings: { from_address: 'news@acme.example' },
    });
    await putWorkflow(t, 'smtp-welcome', [{ type: 'channel', ref: 'email', channel_key: 'mail-smtp', template }]);
    await putWorkflow(t, 'resend-welcome', [{ type: 'channel', ref: 'email', channel_key: 'mail-resend', template }]);
    await knock.users.update('ada', { name: 'Ada Lovelace', email: 'ada@example.org' });
    await knock.users.update('boss', { name: 'The Boss' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await resend?.close();
  });

  it('sends over SMTP: queued then sent, the mail as rendered, the exchange logged without the password', async () => {
    const { workflow_run_id } = await knock.workflows.trigger('smtp-welcome', {
      recipients: ['ada'],
      actor: 'boss',
      data: { note: 'your report & more' },
    });
    const created = await messageOf(t, workflow_run_id, 'email');
    const message = await messageWithStatus(t, created.id, ['sent']);

    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.user).toBe('mailer');
    expect(mail.envelope.mailFrom).toMatchObject({ address: 'hello@acme.example' });
    expect(mail.envelope.rcptTo.map((r) => r.address)).toEqual(['ada@example.org']);
    expect(mail.parsed.subject).toBe('Welcome, Ada Lovelace');
    expect(mail.parsed.from?.value).toEqual([{ address: 'hello@acme.example', name: 'Acme' }]);
    expect(mail.parsed.replyTo?.value).toEqual([{ address: 'support@acme.example', name: '' }]);
    expect(mail.parsed.html).toContain('<p>Hello Ada Lovelace: your report &amp; more</p>');
    expect(mail.parsed.text).toContain('Hello Ada Lovelace: your report & more');
    expect(mail.parsed.headers.get('x-notify-idempotency-key')).toBe(message.id);

    expect(message).toMatchObject({
      channel_type: 'email',
      provider: 'smtp',
      attempts: 1,
      recipient_snapshot: { email: 'ada@example.org' },
      actors: [{ type: 'user', id: 'boss' }],
    });
    // The content as GET /v1/messages/{id}/content shows it (MessageEmailContent).
    expect(message.content).toMatchObject({
      channel_type: 'email',
      from: 'Acme <hello@acme.example>',
      to: 'ada@example.org',
      reply_to: 'support@acme.example',
      subject: 'Welcome, Ada Lovelace',
      html_body: expect.stringContaining('<p>Hello Ada Lovelace: your report &amp; more</p>'),
      text_body: 'Hello Ada Lovelace: your report & more',
    });
    const activities = await t.sql('SELECT actor, data FROM rm_message_activities WHERE message_id = $1', [message.id]);
    expect(activities).toEqual([{ actor: { type: 'user', id: 'boss' }, data: { note: 'your report & more' } }]);

    expect((await messageEvents(t, message.id)).map((e) => e.type)).toEqual(['message.created', 'message.sent']);
    // The attempt is recorded, with the timer that would catch it unfinished, before the provider is called.
    expect(await messageStreamTypes(t, message.id)).toEqual([
      'MessageCreated',
      'MessageDeliveryAttemptStarted',
      'TimerScheduled',
      'MessageDeliveryAttemptCompleted',
      'MessageSent',
    ]);
    const logs = await deliveryLogs(t, message.id);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]).toMatchObject({ attempt: 1, service_name: 'smtp', request: { method: 'SMTP' } });
    expect(JSON.stringify(logs)).not.toContain(smtpPass);
    expect(await secretsAt(t, [smtpPass])).toEqual([]);
  });

  it('records a mailbox the SMTP server refuses at RCPT TO (550) as bounced, without a retry', async () => {
    await knock.users.update('nobody', { name: 'Nobody', email: 'nobody@example.org' });
    smtp.rejectRecipient = (address) => (address === 'nobody@example.org' ? { code: 550, message: '5.1.1 No such user' } : undefined);
    try {
      const { workflow_run_id } = await knock.workflows.trigger('smtp-welcome', { recipients: ['nobody'], data: { note: 'x' } });
      const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'email')).id, ['bounced', 'undelivered', 'sent']);
      expect(message).toMatchObject({ status: 'bounced', attempts: 1 });
      const events = await messageEvents(t, message.id);
      expect(events.map((e) => e.type)).toEqual(['message.created', 'message.bounced']);
      expect(events[1].data.reason).toMatch(/smtp_550.*No such user/);
      expect((await deliveryLogs(t, message.id))[0]).toMatchObject({ response: { status: 550 } });
      // A refused mailbox is a hard bounce: the address is suppressed (ADR 0204).
      const [suppressed] = await eventually(() =>
        t
          .sql<{ reason: string; source: string }>("SELECT reason, source FROM rm_suppressions WHERE address = 'nobody@example.org'")
          .then((rows) => (rows.length ? rows : undefined)),
      );
      expect(suppressed).toEqual({ reason: 'hard_bounce', source: 'smtp' });
    } finally {
      smtp.rejectRecipient = () => undefined;
    }
  });

  it('sends through Resend with the message id as Idempotency-Key; the API key (a secret variable) is sealed and redacted', async () => {
    const { workflow_run_id } = await knock.workflows.trigger('resend-welcome', { recipients: ['ada'], data: { note: 'hi' } });
    const created = await messageOf(t, workflow_run_id, 'email');
    const message = await messageWithStatus(t, created.id, ['sent']);

    const posts = resend.requests.filter((r) => r.url === '/emails');
    expect(posts).toHaveLength(1);
    expect(posts[0].headers['idempotency-key']).toBe(message.id);
    expect(posts[0].headers.authorization).toBe(`Bearer ${resendKey}`);
    expect(json(posts[0])).toMatchObject({
      from: 'news@acme.example',
      to: ['"Ada Lovelace" <ada@example.org>'],
      subject: 'Welcome, Ada Lovelace',
      html: expect.stringContaining('Hello Ada Lovelace: hi'),
    });

    const [log] = await deliveryLogs(t, message.id);
    expect(log).toMatchObject({
      attempt: 1,
      service_name: 'resend',
      request: { method: 'POST', url: `${resend.url}/emails` },
      response: { status: 200, body: { id: expect.any(String) } },
    });
    expect(log.request.headers.authorization).not.toContain(resendKey);
    expect(await secretsAt(t, [resendKey])).toEqual([]);
    const sent = (await messageEvents(t, message.id)).find((e) => e.type === 'message.sent');
    expect(sent?.data).toMatchObject({ attempt: 1, provider_message_id: log.response.body.id });
  });
});
