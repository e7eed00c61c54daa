import { startHttpPeer, type Peer, type PeerResponse, type RecordedRequest } from '@notify/testing/peers';
import { resendApi, twilioMessageCreated } from '@notify/testing/provider-peers';
import {
  eventually,
  messageEvents,
  messageOf,
  messageStreamTypes,
  messageWithStatus,
  putChannel,
  putWorkflow,
} from '../../support/delivery';
import { movableClock } from '../../support/clock';
import { settled } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';
import { describeWith } from '@notify/testing';

/** A restart on the same database needs a Postgres server: the embedded test database lives and dies with its app. */
const describeServer = describeWith('postgres');

/**
 * The worker stopped at awkward moments, then started again on the same database: nothing is
 * lost and nothing is sent twice. Requests are counted at the peers.
 */
describeServer('delivery: worker restarts', () => {
  let twilio: Peer;
  let resend: Peer;
  const apps: TestApp[] = [];
  const resendKey = 're_restart_5e6f7a8b9c';
  const secretsKey = 'ab'.repeat(32);

  /**
   * The first worker's timer clock is an hour behind: it never fires a timer during the test,
   * so whatever the machine's load it is stopped before any falls due.
   */
  const hourBehind = () => new Date(Date.now() - 3_600_000);
  /** One app; with `databaseUrl` a restart on the database of an app closed before (which it drops when closed). */
  const start = async (env: Record<string, string>, databaseUrl?: string, clock?: () => Date) => {
    const t = await startTestApp({
      databaseUrl,
      keepDatabase: !databaseUrl,
      clock,
      env: { SECRETS_KEY: secretsKey, DELIVERY_MAX_ATTEMPTS: '3', ...env },
    });
    apps.push(t);
    return t;
  };
  const stop = async (t: TestApp) => {
    apps.splice(apps.indexOf(t), 1);
    await t.close();
  };
  /** Answers the first request with `first`, every later one with `then`. */
  const firstThen = (first: PeerResponse | 'hang', then: (req: RecordedRequest) => PeerResponse) => {
    let seen = 0;
    return (req: RecordedRequest) => (seen++ === 0 ? first : then(req));
  };
  /**
   * timeout_ms 60 s: a call held by a hanging peer is still in flight when the worker stops, however
   * slow the machine. An attempt's check timer is due 2 timeouts + 2 s after it starts (122 s).
   */
  const putChannels = async (t: TestApp, timeoutMs = 60_000) => {
    await putChannel(t, 'sms', {
      type: 'sms',
      provider: 'twilio',
      provider_settings: {
        account_sid: 'AC00000000000000000000000000000002',
        auth_token: 'tok-restart-5678',
        from: '+15005550006',
        base_url: twilio.url,
        timeout_ms: timeoutMs,
      },
    });
    await putChannel(t, 'mail', {
      type: 'email',
      provider: 'resend',
      provider_settings: { api_key: resendKey, base_url: resend.url, timeout_ms: timeoutMs },
      channel_settings: { from_address: 'hi@acme.example' },
    });
  };
  const configure = async (t: TestApp) => {
    await putChannels(t);
    await putWorkflow(t, 'sms-alert', [{ type: 'channel', ref: 'sms', channel_key: 'sms', template: { text_body: 'Alert' } }]);
    await putWorkflow(t, 'mail-alert', [
      { type: 'channel', ref: 'mail', channel_key: 'mail', template: { subject: 'Alert', html_body: '<p>Alert</p>', settings: {} } },
    ]);
    await t.knock().users.update('ada', { name: 'Ada', email: 'ada@example.org', phone_number: '+15558675310' });
  };

  beforeAll(async () => {
    twilio = await startHttpPeer(twilioMessageCreated);
    resend = await startHttpPeer(resendApi(resendKey));
  });
  beforeEach(() => {
    twilio.requests.length = 0;
    resend.requests.length = 0;
  });
  afterAll(async () => {
    // Apps a failed test left running.
    for (const t of apps) await t.close().catch(() => undefined);
    await twilio?.close();
    await resend?.close();
  });

  it('a retry whose timer was pending when the worker stopped happens once, after the restart', async () => {
    twilio.respond = firstThen({ status: 503, json: { message: 'Service unavailable' } }, twilioMessageCreated);
    // The first worker's timers never fall due: its retry can only happen after the restart.
    const first = await start({ DELIVERY_RETRY_BASE_MS: '2500', DELIVERY_RETRY_MAX_MS: '5000' }, undefined, hourBehind);
    await configure(first);
    const { workflow_run_id } = await first.knock().workflows.trigger('sms-alert', { recipients: ['ada'] });
    const created = await messageOf(first, workflow_run_id, 'sms');
    await messageWithStatus(first, created.id, ['delivery_attempted']);
    await stop(first);
    expect(twilio.requests).toHaveLength(1);

    const second = await start({ DELIVERY_RETRY_BASE_MS: '2500', DELIVERY_RETRY_MAX_MS: '5000' }, first.databaseUrl);
    const message = await messageWithStatus(second, created.id, ['sent', 'undelivered']);
    expect(message).toMatchObject({ status: 'sent', attempts: 2 });
    // Nothing else comes: once the worker has reacted to everything, a further attempt would be in the log.
    await settled(second);
    expect(twilio.requests).toHaveLength(2);
    const types = await messageStreamTypes(second, created.id);
    // The retry's timer fired once (the second attempt's check timer is 122 s away).
    expect(types.filter((type) => type === 'TimerFired')).toHaveLength(1);
    expect(types.filter((type) => type === 'MessageDeliveryAttemptStarted')).toHaveLength(2);
    expect((await messageEvents(second, created.id)).map((e) => e.type)).toEqual([
      'message.created',
      'message.delivery_attempted',
      'message.sent',
    ]);
    await stop(second);
  });

  it('a call cut off by the stop is not repeated (undelivered: delivery_interrupted), unless the provider takes an idempotency key', async () => {
    twilio.respond = firstThen('hang', twilioMessageCreated);
    resend.respond = firstThen('hang', resendApi(resendKey));
    const first = await start({ DELIVERY_RETRY_BASE_MS: '200', DELIVERY_RETRY_MAX_MS: '1000' }, undefined, hourBehind);
    await configure(first);
    const sms = await first.knock().workflows.trigger('sms-alert', { recipients: ['ada'] });
    const mail = await first.knock().workflows.trigger('mail-alert', { recipients: ['ada'] });
    const smsId = (await messageOf(first, sms.workflow_run_id, 'sms')).id;
    const mailId = (await messageOf(first, mail.workflow_run_id, 'mail')).id;
    // Both calls reached their provider, which holds them.
    await eventually(async () => twilio.requests.length === 1 && resend.requests.length === 1, 60_000, 'both providers to be called');
    // Mid-call, the messages are still queued.
    expect(
      (await first.sql('SELECT status FROM rm_messages WHERE id = ANY($1)', [[smsId, mailId]])).map((r: { status: string }) => r.status),
    ).toEqual(['queued', 'queued']);
    await stop(first);

    const clock = movableClock();
    const second = await start({ DELIVERY_RETRY_BASE_MS: '200', DELIVERY_RETRY_MAX_MS: '1000' }, first.databaseUrl, clock.now);
    // The interrupted attempts are settled by their check timers, once the calls could no longer be
    // running anywhere: the test moves the worker's clock there. Channels first get an hour's
    // timeout, so that the retry's own check timer is not due by that clock while its call runs.
    await putChannels(second, 3_600_000);
    await eventually(
      async () => {
        const rows = await second.sql<{ row: string }>(
          "SELECT row_to_json(c)::text AS row FROM rm_channels c WHERE key IN ('sms', 'mail')",
        );
        return rows.length === 2 && rows.every((r) => r.row.includes('3600000'));
      },
      60_000,
      'the new timeout to be read',
    );
    const checks = await second.sql<{ at: string }>(
      "SELECT max(data->>'fire_at') AS at FROM es_events WHERE event_type = 'TimerScheduled' AND stream_id LIKE 'message-%' AND data->>'purpose' = 'delivery_check'",
    );
    clock.moveTo(Date.parse(checks[0].at) + 1000);
    const interrupted = await messageWithStatus(second, smsId, ['undelivered', 'sent', 'delivery_attempted']);
    expect(interrupted).toMatchObject({ status: 'undelivered', attempts: 1 });
    expect(await messageStreamTypes(second, smsId)).toEqual([
      'MessageCreated',
      'MessageDeliveryAttemptStarted',
      'TimerScheduled',
      'TimerFired',
      'MessageDeliveryAttemptCompleted',
      'MessageUndelivered',
    ]);
    const undelivered = (await messageEvents(second, smsId)).find((e) => e.type === 'message.undelivered');
    expect(undelivered?.data.reason).toMatch(/^delivery_interrupted/);

    // Resend takes the key: the interrupted attempt is followed by a retry with the same key.
    const repeated = await messageWithStatus(second, mailId, ['sent', 'undelivered']);
    expect(repeated).toMatchObject({ status: 'sent', attempts: 2 });
    const mailEvents = await messageEvents(second, mailId);
    expect(mailEvents.map((e) => e.type)).toEqual(['message.created', 'message.delivery_attempted', 'message.sent']);
    expect(mailEvents[1].data.reason).toMatch(/^delivery_interrupted/);
    await settled(second);
    expect(twilio.requests).toHaveLength(1);
    expect(resend.requests).toHaveLength(2);
    expect(resend.requests.map((r) => r.headers['idempotency-key'])).toEqual([mailId, mailId]);
    await stop(second);
  });
});
