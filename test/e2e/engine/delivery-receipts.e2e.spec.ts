import Knock from '@knocklabs/node';
import { sign } from 'node:crypto';
import { snsStringToSign, svixSignature, twilioSignature } from '@notify/delivery';
import { selfSignedCertificate } from '@notify/testing';
import { closedPort, form, json, startHttpPeer, type Peer } from '@notify/testing/peers';
import { resendApi, slackPosted, twilioMessageCreated } from '@notify/testing/provider-peers';
import { finishedRuns } from '../../support/engine';
import { deliveryLogs, eventually, messageEvents, messageOf, messageWithStatus, putChannel, putWorkflow } from '../../support/delivery';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Delivery receipts over HTTP (ADR 0203, 0204): a provider's signed webhook moves the message's
 * status, a hard bounce suppresses the address, and the next email to it is skipped. A bad
 * signature is refused and writes nothing; a replayed event records nothing twice.
 */
describe('delivery receipts and suppression', () => {
  let t: TestApp;
  let knock: Knock;
  let resend: Peer;
  let sns: Peer;
  let slack: Peer;
  let twilio: Peer;
  const twilioAccount = 'AC5e1f0e2d3c4b5a69788796a5b4c3d2e1';
  const twilioToken = 'twilio-auth-token-receipts-e2e';
  const certificate = selfSignedCertificate('sns.test');
  let first: { messageId: string; emailId: string } | undefined;
  const apiKey = 're_e2e_receipts_key';
  const webhookSecret = `whsec_${Buffer.from('receipts-e2e-webhook-secret').toString('base64')}`;
  const receiptPath = '/v1/receipts/development/mail/resend';

  /** A webhook as Resend's Svix would post it. */
  function post(event: Record<string, unknown>, svixId: string, secret = webhookSecret) {
    const raw = JSON.stringify(event);
    const timestamp = String(Math.floor(Date.now() / 1000));
    return t.http('POST', receiptPath, {
      rawBody: raw,
      headers: {
        'content-type': 'application/json',
        'svix-id': svixId,
        'svix-timestamp': timestamp,
        'svix-signature': svixSignature(secret, svixId, timestamp, raw),
      },
    });
  }
  const receiptsRecorded = async () =>
    (
      await t.sql<{ n: number }>(
        "SELECT count(*)::int AS n FROM es_events WHERE event_type IN ('MessageReceiptRecorded', 'AddressSuppressed')",
      )
    )[0].n;

  beforeAll(async () => {
    resend = await startHttpPeer(resendApi(apiKey));
    // Stands in for Amazon SNS: its signing certificate, and the subscription confirmation URL.
    sns = await startHttpPeer((req) => (req.url === '/cert.pem' ? { status: 200, text: certificate.pem } : { status: 200, text: '<ok/>' }));
    slack = await startHttpPeer(slackPosted);
    twilio = await startHttpPeer(twilioMessageCreated);
    // Tracked links and the open pixel are absolute under PUBLIC_URL: the app listens there.
    const port = await closedPort();
    t = await startTestApp({
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SNS_CERTIFICATE_ORIGINS: 'http://127.0.0.1:*' },
    });
    knock = t.knock();
    await putChannel(t, 'mail', {
      type: 'email',
      provider: 'resend',
      provider_settings: { api_key: apiKey, from: 'notify@example.org', base_url: resend.url, webhook_secret: webhookSecret },
      // Tracking per channel, with the service-wide LINK_TRACKING_ENABLED left off.
      channel_settings: { link_tracking: true, open_tracking: true },
    });
    await putWorkflow(t, 'receipts', [
      {
        type: 'channel',
        ref: 'email',
        channel_key: 'mail',
        template: { settings: {}, subject: 'Hi', html_body: '<p>Hi <a href="https://example.org/docs">docs</a></p>' },
      },
    ]);
    await knock.users.update('ada', { name: 'Ada', email: 'Ada@Example.org' });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([resend, sns, slack, twilio].map((p) => p?.close()));
  });

  it('receipt -> status and delivery logs -> suppression -> the next email is skipped; bad signatures and replays write nothing', async () => {
    const { workflow_run_id } = await knock.workflows.trigger('receipts', { recipients: ['ada'] });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'email')).id, ['sent']);
    const sent = (await messageEvents(t, message.id)).find((e) => e.type === 'message.sent');
    const emailId = sent!.data.provider_message_id as string;
    expect(emailId).toMatch(/^4ef9a417-/);
    first = { messageId: message.id, emailId };
    // Receipts find their message through the provider id read model: wait for it, as a provider's
    // receipt comes after the send.
    await eventually(async () => (await t.sql('SELECT 1 FROM rm_message_provider_ids WHERE provider_message_id = $1', [emailId])).length);
    // The channel's own tracking settings: links rewritten, an open pixel that marks the message read.
    const html = String((json(resend.requests[0]) as { html: string }).html);
    expect(html).toContain(`href="${t.url}/v1/links/`);
    const pixel = /<img src="([^"]+\/v1\/opens\/[^"]+)"/.exec(html)![1];
    const opened = await fetch(pixel);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('image/gif');
    await eventually(
      async () => (await t.sql<{ read_at: Date | null }>('SELECT read_at FROM rm_messages WHERE id = $1', [message.id]))[0]?.read_at,
    );

    const data = { email_id: emailId, to: ['ada@example.org'], created_at: new Date().toISOString() };

    // A forged or unsigned webhook: 401 in the error shape, nothing written.
    const forged = await post({ type: 'email.delivered', data }, 'msg_forged', `whsec_${Buffer.from('another').toString('base64')}`);
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({
      code: 'invalid_signature',
      status: 401,
      type: 'authentication_error',
      message: expect.any(String),
    });
    const unsigned = await t.http('POST', receiptPath, { body: { type: 'email.bounced', data } });
    expect(unsigned.status).toBe(401);
    expect(await receiptsRecorded()).toBe(0);

    const delivered = await post({ type: 'email.delivered', created_at: new Date().toISOString(), data }, 'msg_delivered');
    expect(delivered).toMatchObject({ status: 200, body: { recorded: 1, duplicates: 0, ignored: 0 } });
    await messageWithStatus(t, message.id, ['delivered']);

    const bounce = {
      type: 'email.bounced',
      created_at: new Date().toISOString(),
      data: { ...data, bounce: { type: 'Permanent', message: 'mailbox does not exist' } },
    };
    expect((await post(bounce, 'msg_bounced')).body).toEqual({ recorded: 1, duplicates: 0, ignored: 0 });
    // The provider retries the same event: recognised by its id, nothing recorded twice.
    expect((await post(bounce, 'msg_bounced')).body).toEqual({ recorded: 0, duplicates: 1, ignored: 0 });
    expect(await receiptsRecorded()).toBe(3);

    // About a message not known (yet): a recent event is answered 503 so the provider delivers it
    // again later; an old one is someone else's and is ignored. Neither writes anything.
    const unknown = { ...data, email_id: 'e2e-not-sent-here' };
    const early = await post({ type: 'email.delivered', created_at: new Date().toISOString(), data: unknown }, 'msg_early');
    expect(early.status).toBe(503);
    expect(early.body).toMatchObject({ code: 'receipt_message_unknown', status: 503, type: 'api_error' });
    const stale = new Date(Date.now() - 60 * 60_000).toISOString();
    expect((await post({ type: 'email.delivered', created_at: stale, data: unknown }, 'msg_stale')).body).toEqual({
      recorded: 0,
      duplicates: 0,
      ignored: 1,
    });
    expect(await receiptsRecorded()).toBe(3);

    await messageWithStatus(t, message.id, ['bounced']);
    expect(await knock.messages.get(message.id)).toMatchObject({ id: message.id, status: 'bounced' });
    const types = (await messageEvents(t, message.id)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['message.sent', 'message.delivered', 'message.bounced']));
    const bounced = (await messageEvents(t, message.id)).find((e) => e.type === 'message.bounced');
    expect(bounced!.data.reason).toBe('hard_bounce: mailbox does not exist');
    const receiptLogs = (await deliveryLogs(t, message.id)).filter((l) => l.attempt === 0);
    expect(receiptLogs.map((l) => l.response.body.kind).sort()).toEqual(['bounced', 'delivered']);
    const logsPage = await t.http('GET', `/v1/messages/${message.id}/delivery_logs`);
    expect(logsPage.body.items.filter((l: { service_name: string }) => l.service_name === 'resend')).toHaveLength(3);

    const list = await eventually(async () => {
      const res = await t.http('GET', '/v1/suppressions');
      return res.body.entries?.length ? res.body : undefined;
    });
    expect(list.entries).toEqual([
      expect.objectContaining({
        __typename: 'Suppression',
        address: 'ada@example.org',
        reason: 'hard_bounce',
        source: 'resend',
        message_id: message.id,
      }),
    ]);

    const next = await knock.workflows.trigger('receipts', { recipients: ['ada'] });
    const [run] = await finishedRuns(t, next.workflow_run_id);
    expect(run.steps.email).toMatchObject({ status: 'skipped', reason: 'suppressed:hard_bounce', output: { address: 'ada@example.org' } });
    expect(resend.requests).toHaveLength(1);
    // Explain names the entry and the receipt behind it: the bounced message and its provider (ADR 0181).
    const explained = (await t.http('GET', `/v1/workflow_recipient_runs/${run.runId}/explain`)).body;
    const email = explained.steps.find((st: { step_ref: string }) => st.step_ref === 'email');
    expect(email).toMatchObject({
      status: 'skipped',
      inputs: {
        suppression: { reason: 'hard_bounce', message_id: message.id, source: 'resend', suppressed_at: list.entries[0].inserted_at },
      },
    });
    expect(explained.text).toContain(`for a hard bounce of message ${message.id} (resend)`);
  });

  it('manages the list: remove (then 404 on a second remove), add by hand, with validation in the error shape', async () => {
    const removed = await t.http('DELETE', '/v1/suppressions/ada@example.org');
    expect(removed.status).toBe(204);
    expect((await t.http('DELETE', '/v1/suppressions/ada@example.org')).status).toBe(404);
    expect((await t.http('GET', '/v1/suppressions')).body.entries).toEqual([]);

    const added = await t.http('PUT', '/v1/suppressions/Grace@Example.org', { body: { detail: 'asked by phone' } });
    expect(added).toMatchObject({
      status: 200,
      body: { address: 'grace@example.org', reason: 'manual', detail: 'asked by phone', message_id: null },
    });
    const invalid = await t.http('GET', '/v1/suppressions?reason=nope');
    expect(invalid).toMatchObject({ status: 422, body: { code: 'invalid_params', type: 'invalid_request_error' } });

    // A phone number as users hold it is an address; a word is neither an email address nor a number.
    const phone = await t.http('PUT', `/v1/suppressions/${encodeURIComponent('+1 (555) 010-9999')}`);
    expect(phone).toMatchObject({ status: 200, body: { address: '+1 (555) 010-9999', reason: 'manual' } });
    for (const bad of ['not-an-address', 'ada@', '12'])
      expect(await t.http('PUT', `/v1/suppressions/${encodeURIComponent(bad)}`)).toMatchObject({
        status: 422,
        body: {
          code: 'invalid_params',
          status: 422,
          type: 'invalid_request_error',
          errors: [
            expect.objectContaining({
              field: 'address',
              message: expect.stringMatching(/^(must be an email address or a phone number|Too small.*)$/),
            }),
          ],
        },
      });
    const listed = await t.http('GET', '/v1/suppressions');
    expect(listed.body.entries.map((e: { address: string }) => e.address).sort()).toEqual(['+1 (555) 010-9999', 'grace@example.org']);
  });

  it('Amazon SES through SNS: the signing certificate is fetched from an allowed origin; a confirmation is confirmed; a bad signature is 401', async () => {
    const { messageId, emailId } = first!;
    const sesPath = '/v1/receipts/development/mail/ses';
    const signed = (m: Record<string, string>): Record<string, string> => ({
      ...m,
      SignatureVersion: '2',
      SigningCertURL: `${sns.url}/cert.pem`,
      Signature: sign('sha256', Buffer.from(snsStringToSign(m)), certificate.privateKey).toString('base64'),
    });
    const asSns = (body: Record<string, unknown>) =>
      t.http('POST', sesPath, { rawBody: JSON.stringify(body), headers: { 'content-type': 'text/plain; charset=UTF-8' } });
    const notification = signed({
      Type: 'Notification',
      MessageId: 'sns-e2e-1',
      TopicArn: 'arn:aws:sns:eu-west-1:1:ses',
      Timestamp: new Date().toISOString(),
      Message: JSON.stringify({
        notificationType: 'Complaint',
        mail: { messageId: emailId, destination: ['ada@example.org'] },
        complaint: {},
      }),
    });

    const tampered = await asSns({ ...notification, Message: notification.Message.replace('Complaint', 'Delivery') });
    expect(tampered).toMatchObject({ status: 401, body: { code: 'invalid_signature', type: 'authentication_error' } });
    const elsewhere = await asSns({ ...notification, SigningCertURL: 'https://evil.example/cert.pem' });
    expect(elsewhere.status).toBe(401);

    expect((await asSns(notification)).body).toEqual({ recorded: 1, duplicates: 0, ignored: 0 });
    expect(sns.requests.filter((r) => r.url === '/cert.pem')).toHaveLength(1);
    const kinds = await t.sql<{ kind: string }>(
      "SELECT data->>'kind' AS kind FROM es_events WHERE event_type = 'MessageReceiptRecorded' AND stream_id LIKE $1 ORDER BY global_position",
      [`%${messageId}`],
    );
    expect(kinds.map((k) => k.kind)).toEqual(['delivered', 'bounced', 'complained']);
    // A complaint suppresses the address again (it was removed by hand above).
    await eventually(async () => (await t.http('GET', '/v1/suppressions?reason=complaint')).body.entries?.length);

    const confirmation = signed({
      Type: 'SubscriptionConfirmation',
      MessageId: 'sns-e2e-2',
      Token: 'tok',
      TopicArn: 'arn:aws:sns:eu-west-1:1:ses',
      Message: 'You have chosen to subscribe',
      SubscribeURL: `${sns.url}/confirm?Token=tok`,
      Timestamp: new Date().toISOString(),
    });
    expect((await asSns(confirmation)).body).toEqual({ recorded: 0, duplicates: 0, ignored: 0 });
    expect(sns.requests.map((r) => r.url)).toContain('/confirm?Token=tok');
  });

  it('chat link tracking: a Slack message carries tracked links with their labels; a click records link_clicked and redirects, an unfurl does not', async () => {
    const chatChannel = await putChannel(t, 'slack-tracked', {
      type: 'chat',
      provider: 'slack',
      provider_settings: { base_url: slack.url },
      channel_settings: { link_tracking: true },
    });
    await putWorkflow(t, 'chat-links', [
      {
        type: 'channel',
        ref: 'slack',
        channel_key: 'slack-tracked',
        template: {
          markdown_body: 'Build done: <https://ci.example/runs/7?a=1&b=2|run 7>',
          summary: 'Build done',
          // Block Kit: the message Slack shows (the markdown body is not sent with blocks).
          json_body: JSON.stringify({
            blocks: [
              { type: 'section', text: { type: 'mrkdwn', text: 'Build done: <https://ci.example/runs/7?a=1&b=2|run 7>' } },
              {
                type: 'actions',
                elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open' }, url: 'https://ci.example/open' }],
              },
            ],
          }),
        },
      },
    ]);
    await knock.users.update('lin', { name: 'Lin' });
    await knock.users.setChannelData('lin', chatChannel, {
      data: { connections: [{ channel_id: 'C0LINKS', access_token: 'xoxb-links-e2e' }] },
    });
    const { workflow_run_id } = await knock.workflows.trigger('chat-links', { recipients: ['lin'] });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'slack')).id, ['sent']);

    const posted = json(slack.requests.at(-1)!) as {
      text: string;
      blocks: [{ text: { text: string } }, { elements: { url: string }[] }];
    };
    expect(posted.text).toBe('Build done');
    const label = /^Build done: <([^|>]+)\|run 7>$/.exec(posted.blocks[0].text.text);
    expect(label?.[1].startsWith(`${t.url}/v1/links/`)).toBe(true);
    const button = posted.blocks[1].elements[0].url;
    expect(button.startsWith(`${t.url}/v1/links/`)).toBe(true);

    // Slack unfurling the link: redirected, no click recorded.
    const unfurl = await fetch(label![1], {
      redirect: 'manual',
      headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
    });
    expect(unfurl.status).toBe(302);
    expect(unfurl.headers.get('location')).toBe('https://ci.example/runs/7?a=1&b=2');
    // The reader's clicks.
    const click = await fetch(label![1], { redirect: 'manual' });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://ci.example/runs/7?a=1&b=2');
    expect((await fetch(button, { redirect: 'manual' })).headers.get('location')).toBe('https://ci.example/open');
    const clicks = async () =>
      (await messageEvents(t, message.id)).filter((e) => e.type === 'message.link_clicked').map((e) => e.data.url as string);
    const recorded = await eventually(async () => ((await clicks()).length >= 2 ? clicks() : undefined));
    expect(recorded.sort()).toEqual(['https://ci.example/open', 'https://ci.example/runs/7?a=1&b=2']);
    expect(await knock.messages.get(message.id)).toMatchObject({ id: message.id, link_clicked_at: expect.any(String) });
  });

  it('chat link tracking on Telegram in HTML (parse_mode): anchors and bare URLs are tracked, code stays; a click redirects', async () => {
    const telegram = await startHttpPeer(() => ({ status: 200, json: { ok: true, result: { message_id: 42 } } }));
    try {
      const channelId = await putChannel(t, 'telegram-tracked', {
        type: 'chat',
        provider: 'telegram',
        provider_settings: { bot_token: '123456:ABC-e2e', parse_mode: 'HTML', base_url: telegram.url },
        channel_settings: { link_tracking: true },
      });
      await putWorkflow(t, 'telegram-links', [
        {
          type: 'channel',
          ref: 'telegram',
          channel_key: 'telegram-tracked',
          template: {
            markdown_body:
              '<b>Build done</b>: <a href="https://ci.example/runs/8?a=1&amp;b=2">run 8</a>, log at https://ci.example/log. <code>https://ci.example/raw</code>',
          },
        },
      ]);
      await knock.users.update('tove', { name: 'Tove' });
      await knock.users.setChannelData('tove', channelId, { data: { connections: [{ channel_id: '-1001234567890' }] } });
      const { workflow_run_id } = await knock.workflows.trigger('telegram-links', { recipients: ['tove'] });
      await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'telegram')).id, ['sent']);

      const sent = json(telegram.requests.at(-1)!) as { text: string; parse_mode: string };
      expect(sent.parse_mode).toBe('HTML');
      const tracked = `${t.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/v1/links/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+`;
      expect(sent.text).toMatch(
        new RegExp(
          `^<b>Build done</b>: <a href="(${tracked})">run 8</a>, log at <a href="(${tracked})">https://ci\\.example/log</a>\\. <code>https://ci\\.example/raw</code>$`,
        ),
      );
      const [anchor, bare] = [...sent.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
      expect((await fetch(anchor, { redirect: 'manual' })).headers.get('location')).toBe('https://ci.example/runs/8?a=1&b=2');
      expect((await fetch(bare, { redirect: 'manual' })).headers.get('location')).toBe('https://ci.example/log');
    } finally {
      await telegram.close();
    }
  });

  it("Twilio: the status callback is the service's receipts endpoint without configuring it; its signed callback marks the SMS delivered", async () => {
    await putChannel(t, 'sms', {
      type: 'sms',
      provider: 'twilio',
      provider_settings: { account_sid: twilioAccount, auth_token: twilioToken, from: '+15005550006', base_url: twilio.url },
    });
    await putWorkflow(t, 'sms-receipts', [
      { type: 'channel', ref: 'sms', channel_key: 'sms', template: { text_body: 'Your code is 4242' } },
    ]);
    await knock.users.update('lin', { phone_number: '+15558675399' });
    const { workflow_run_id } = await knock.workflows.trigger('sms-receipts', { recipients: ['lin'] });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'sms')).id, ['sent']);
    const sent = form(twilio.requests[0]);
    const callback = `${t.url}/v1/receipts/development/sms/twilio`;
    expect(sent.StatusCallback).toBe(callback);
    const sid = (await messageEvents(t, message.id)).find((e) => e.type === 'message.sent')!.data.provider_message_id as string;
    await eventually(async () => (await t.sql('SELECT 1 FROM rm_message_provider_ids WHERE provider_message_id = $1', [sid])).length);

    // What Twilio posts to the callback URL it was given, signed with the account's auth token.
    const params = { MessageSid: sid, MessageStatus: 'delivered', To: '+15558675399', AccountSid: twilioAccount };
    const post = (signature: string) =>
      t.http('POST', new URL(callback).pathname, {
        rawBody: new URLSearchParams(params).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      });
    expect((await post(twilioSignature('another-token', callback, params))).status).toBe(401);
    expect((await post(twilioSignature(twilioToken, callback, params))).body).toEqual({ recorded: 1, duplicates: 0, ignored: 0 });
    await messageWithStatus(t, message.id, ['delivered']);
  });
});
