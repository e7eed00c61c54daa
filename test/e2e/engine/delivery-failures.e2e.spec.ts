import Knock from '@knocklabs/node';
import { startHttpPeer, startSmtpPeer, type Peer, type PeerResponse, type RecordedRequest, type SmtpPeer } from '@notify/testing/peers';
import { resendApi, twilioMessageCreated } from '@notify/testing/provider-peers';
import {
  deliveryLogs,
  messageEvents,
  messageOf,
  messageStreamTypes,
  messageTimers,
  messageWithStatus,
  putChannel,
  putWorkflow,
} from '../../support/delivery';
import { settled } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Provider failures: retryable ones (5xx, 429, timeouts) are retried with backoff and the message
 * is delivery_attempted meanwhile, then undelivered once the attempts run out; permanent ones
 * (4xx) end undelivered at once. Sandbox channels never call their provider.
 * Retry policy here: 3 attempts, 200 ms base, 1 s cap, ±20 % jitter.
 */
describe('delivery: failures, retries and sandbox', () => {
  let t: TestApp;
  let knock: Knock;
  let twilio: Peer;
  let resend: Peer;
  let hooks: Peer;
  let smtp: SmtpPeer;
  const resendKey = 're_failures_0a1b2c3d4e';

  /** Answers from a script, one per request, then the last one again. */
  const scripted = (answers: (PeerResponse | 'hang')[], then: (req: RecordedRequest) => PeerResponse | 'hang') => {
    let i = 0;
    return (req: RecordedRequest) => (i < answers.length ? answers[i++] : then(req));
  };
  const gap = (e: { data: { at: string; retry_at: string } }) => Date.parse(e.data.retry_at) - Date.parse(e.data.at);

  beforeAll(async () => {
    twilio = await startHttpPeer(twilioMessageCreated);
    resend = await startHttpPeer(resendApi(resendKey));
    hooks = await startHttpPeer(() => ({ status: 200, text: 'ok' }));
    smtp = await startSmtpPeer({ user: 'u', pass: 'p' });
    t = await startTestApp({ env: { DELIVERY_RETRY_BASE_MS: '200', DELIVERY_RETRY_MAX_MS: '1000', DELIVERY_MAX_ATTEMPTS: '3' } });
    knock = t.knock();
    await putChannel(t, 'sms', {
      type: 'sms',
      provider: 'twilio',
      provider_settings: {
        account_sid: 'AC00000000000000000000000000000001',
        auth_token: 'tok-failures-1234',
        from: '+15005550006',
        base_url: twilio.url,
      },
    });
    await putChannel(t, 'mail', {
      type: 'email',
      provider: 'resend',
      provider_settings: { api_key: resendKey, base_url: resend.url },
      channel_settings: { from_address: 'hi@acme.example' },
    });
    await putChannel(t, 'hooks', { type: 'http', provider: 'webhook', provider_settings: { timeout_ms: 300 } });
    await putChannel(t, 'sandbox-mail', {
      type: 'email',
      provider: 'smtp',
      is_sandbox: true,
      provider_settings: { host: '127.0.0.1', port: smtp.port, auth: { user: 'u', pass: 'p' }, ignore_tls: true },
      channel_settings: { from_address: 'hi@acme.example' },
    });
    await putWorkflow(t, 'sms-alert', [{ type: 'channel', ref: 'sms', channel_key: 'sms', template: { text_body: 'Alert {{ data.n }}' } }]);
    await putWorkflow(t, 'mail-alert', [
      { type: 'channel', ref: 'mail', channel_key: 'mail', template: { subject: 'Alert', html_body: '<p>Alert</p>', settings: {} } },
    ]);
    await putWorkflow(t, 'hook-alert', [
      {
        type: 'channel',
        ref: 'hook',
        channel_key: 'hooks',
        template: { url: `${hooks.url}/in`, method: 'post', body: '{"n": {{ data.n }}}' },
      },
    ]);
    await putWorkflow(t, 'sandboxed', [
      { type: 'channel', ref: 'mail', channel_key: 'sandbox-mail', template: { subject: 'Hi', html_body: '<p>Hi</p>', settings: {} } },
    ]);
    await knock.users.update('ada', { name: 'Ada', email: 'ada@example.org', phone_number: '+15558675310' });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([twilio, resend, hooks].map((p) => p?.close()));
    await smtp?.close();
  });

  it('retries 5xx answers with exponential backoff, then sends', async () => {
    twilio.requests.length = 0;
    twilio.respond = scripted(
      [
        { status: 503, json: { code: 20503, message: 'Service unavailable' } },
        { status: 502, text: 'Bad gateway' },
      ],
      twilioMessageCreated,
    );
    const { workflow_run_id } = await knock.workflows.trigger('sms-alert', { recipients: ['ada'], data: { n: 1 } });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'sms')).id, ['sent', 'undelivered']);

    expect(message).toMatchObject({ status: 'sent', attempts: 3 });
    expect(twilio.requests).toHaveLength(3);
    const events = await messageEvents(t, message.id);
    expect(events.map((e) => e.type)).toEqual([
      'message.created',
      'message.delivery_attempted',
      'message.delivery_attempted',
      'message.sent',
    ]);
    const attempted = events.filter((e) => e.type === 'message.delivery_attempted');
    expect(attempted.map((e) => e.data.attempt)).toEqual([1, 2]);
    expect(attempted[0].data.reason).toMatch(/503/);
    expect(attempted[1].data.reason).toMatch(/502/);
    // 200 ms then 400 ms, each ±20 %.
    expect(gap(attempted[0])).toBeGreaterThanOrEqual(160);
    expect(gap(attempted[0])).toBeLessThanOrEqual(240);
    expect(gap(attempted[1])).toBeGreaterThanOrEqual(320);
    expect(gap(attempted[1])).toBeLessThanOrEqual(480);
    // Each retry starts once its timer is due, not before.
    const starts = await t.sql<{ data: { attempt: number; started_at: string } }>(
      "SELECT data FROM es_events WHERE stream_id LIKE $1 AND event_type = 'MessageDeliveryAttemptStarted' ORDER BY global_position",
      [`message-%-${message.id}`],
    );
    expect(starts.map((s) => s.data.attempt)).toEqual([1, 2, 3]);
    expect(Date.parse(starts[1].data.started_at)).toBeGreaterThanOrEqual(Date.parse(attempted[0].data.retry_at));
    expect(Date.parse(starts[2].data.started_at)).toBeGreaterThanOrEqual(Date.parse(attempted[1].data.retry_at));
    const logs = await deliveryLogs(t, message.id);
    expect(logs.map((l) => [l.attempt, l.response?.status])).toEqual([
      [1, 503],
      [2, 502],
      [3, 201],
    ]);
  });

  it('honours a 429 Retry-After (up to the cap) and is delivery_attempted while it waits', async () => {
    resend.requests.length = 0;
    const ok = resendApi(resendKey);
    resend.respond = scripted(
      [
        {
          status: 429,
          headers: { 'retry-after': '1' },
          json: { statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests' },
        },
      ],
      ok,
    );
    const { workflow_run_id } = await knock.workflows.trigger('mail-alert', { recipients: ['ada'] });
    const created = await messageOf(t, workflow_run_id, 'mail');
    const message = await messageWithStatus(t, created.id, ['sent']);
    expect(message.attempts).toBe(2);
    // delivery_attempted between the two calls (read from its events: a read of the status
    // during the wait would race with the retry on a loaded machine).
    const events = await messageEvents(t, message.id);
    expect(events.map((e) => e.type)).toEqual(['message.created', 'message.delivery_attempted', 'message.sent']);
    const [attempted] = events.filter((e) => e.type === 'message.delivery_attempted');
    expect(attempted.data.reason).toMatch(/429/);
    // Exact: the Retry-After (1 s, the cap) is added to the same clock reading as the attempt's time.
    expect(gap(attempted)).toBe(1000);
    // Both attempts carry the same idempotency key.
    expect(resend.requests.map((r) => r.headers['idempotency-key'])).toEqual([message.id, message.id]);
  });

  it('retries a provider that does not answer in time', async () => {
    hooks.requests.length = 0;
    hooks.respond = scripted(['hang'], () => ({ status: 204, text: '' }));
    const { workflow_run_id } = await knock.workflows.trigger('hook-alert', { recipients: ['ada'], data: { n: 3 } });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'hook')).id, ['delivered', 'undelivered']);
    expect(message).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(hooks.requests).toHaveLength(2);
    expect(hooks.requests.map((r) => r.headers['x-notify-attempt'])).toEqual(['1', '2']);
    const [attempted] = (await messageEvents(t, message.id)).filter((e) => e.type === 'message.delivery_attempted');
    expect(attempted.data.reason).toMatch(/timeout/);
    const [first] = await deliveryLogs(t, message.id);
    expect(first).toMatchObject({ attempt: 1, response: { error: expect.stringMatching(/timeout/) } });
  });

  it('gives up after the last attempt: undelivered, with the reason', async () => {
    hooks.requests.length = 0;
    hooks.respond = () => ({ status: 500, json: { error: 'boom' } });
    const { workflow_run_id } = await knock.workflows.trigger('hook-alert', { recipients: ['ada'], data: { n: 4 } });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'hook')).id, ['undelivered', 'delivered']);

    expect(message).toMatchObject({ status: 'undelivered', attempts: 3 });
    expect(hooks.requests).toHaveLength(3);
    const events = await messageEvents(t, message.id);
    expect(events.map((e) => e.type)).toEqual([
      'message.created',
      'message.delivery_attempted',
      'message.delivery_attempted',
      'message.undelivered',
    ]);
    expect(events.at(-1)?.data).toMatchObject({ attempts: 3, reason: expect.stringMatching(/500/) });
    // Two retries scheduled, none for a fourth attempt; each attempt had its check.
    expect((await messageTimers(t, message.id)).map((timer) => timer.purpose)).toEqual([
      'delivery_check',
      'delivery_retry',
      'delivery_check',
      'delivery_retry',
      'delivery_check',
    ]);
  });

  it('does not retry a permanent error: undelivered after one attempt', async () => {
    resend.requests.length = 0;
    resend.respond = () => ({ status: 422, json: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' } });
    const { workflow_run_id } = await knock.workflows.trigger('mail-alert', { recipients: ['ada'] });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'mail')).id, ['undelivered', 'sent']);

    expect(message).toMatchObject({ status: 'undelivered', attempts: 1 });
    expect(resend.requests).toHaveLength(1);
    const events = await messageEvents(t, message.id);
    expect(events.map((e) => e.type)).toEqual(['message.created', 'message.undelivered']);
    expect(events[1].data.reason).toMatch(/validation_error/);
    expect((await messageTimers(t, message.id)).map((timer) => timer.purpose)).toEqual(['delivery_check']);
  });

  it('never calls the provider of a sandbox channel: not_sent', async () => {
    const { workflow_run_id } = await knock.workflows.trigger('sandboxed', { recipients: ['ada'] });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'mail')).id, ['not_sent']);
    expect(message.sandbox).toBe(true);
    expect((await messageEvents(t, message.id)).map((e) => e.type)).toEqual(['message.created', 'message.not_sent']);
    expect(await messageStreamTypes(t, message.id)).toEqual(['MessageCreated', 'MessageNotSent']);
    // Once the worker has reacted to everything, a (wrong) delivery would be in the log.
    await settled(t);
    expect(await messageStreamTypes(t, message.id)).toEqual(['MessageCreated', 'MessageNotSent']);
    expect(smtp.messages).toHaveLength(0);
    expect(await deliveryLogs(t, message.id)).toEqual([]);
  });
});
