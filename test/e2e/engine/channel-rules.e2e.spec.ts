import Knock from '@knocklabs/node';
import { activeWorkflow, bodyOf, feed, finishedRuns, messagesOf, pausedRuns, uniqueKey } from '../../support/engine';
import { movableClock } from '../../support/clock';
import { startTestApp, TestApp } from '../../support/test-app';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Local weekday and HH:MM of an instant in a time zone. */
function localTime(at: Date, timeZone: string): { day: string; hhmm: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'long', hour: '2-digit', minute: '2-digit' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { day: parts.weekday.toLowerCase(), hhmm: `${parts.hour}:${parts.minute}` };
}

/** What decides whether a channel step sends: conditions, preferences, addresses, send windows. */
describe('workflow engine: whether a channel step sends', () => {
  let t: TestApp;
  let knock: Knock;
  // The worker's clock (its timers and its runs' decisions): the system clock until a test moves it.
  const clock = movableClock();
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });

  beforeAll(async () => {
    t = await startTestApp({ clock: clock.now });
    knock = t.knock();
    // Sandboxed channels: messages are created and never handed to a provider.
    for (const [key, type, provider] of [
      ['mail', 'email', 'mailgun'],
      ['phone', 'sms', 'twilio'],
      ['mobile', 'push', 'fcm'],
    ]) {
      const res = await svc('PUT', `/v1/channels/${key}`, {
        channel: { name: key, type, provider, environment_settings: { development: { is_sandbox: true } } },
      });
      expect(res.status).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  it('skips a step whose conditions do not hold, with the reason on StepCompleted', async () => {
    const key = uniqueKey('step-cond');
    await activeWorkflow(t, key, {
      steps: [
        feed('maybe', 'conditional', { conditions: { all: [{ variable: 'data.notify', operator: 'equal_to', argument: 'true' }] } }),
        feed('always', 'always'),
      ],
    });
    const off = await knock.workflows.trigger(key, { recipients: [{ id: 'cond-ada' }], data: { notify: false } });
    const [run] = await finishedRuns(t, off.workflow_run_id);
    expect(run.steps.maybe).toMatchObject({ status: 'skipped', reason: 'step_conditions_not_met' });
    expect((await messagesOf(t, off.workflow_run_id)).map(bodyOf)).toEqual(['always']);

    const on = await knock.workflows.trigger(key, { recipients: [{ id: 'cond-ada' }], data: { notify: true } });
    await finishedRuns(t, on.workflow_run_id);
    expect((await messagesOf(t, on.workflow_run_id)).map(bodyOf).sort()).toEqual(['always', 'conditional']);
  });

  it("ends a run whose recipient fails the workflow's conditions before any step, with the reason", async () => {
    const key = uniqueKey('wf-cond');
    await activeWorkflow(t, key, {
      conditions: { all: [{ variable: 'recipient.muted', operator: 'not_equal_to', argument: 'true' }] },
      steps: [feed('feed')],
    });
    const { workflow_run_id } = await knock.workflows.trigger(key, {
      recipients: [{ id: 'wc-muted', muted: true } as never, { id: 'wc-open', muted: false } as never],
    });
    const runs = await finishedRuns(t, workflow_run_id, 2);
    const muted = runs.find((r) => r.recipient.id === 'wc-muted')!;
    expect(muted.types).toEqual(['RunEnqueued', 'RunCompleted']);
    expect(muted.completed).toMatchObject({ outcome: 'halted', reason: 'workflow_conditions_not_met' });
    expect((await messagesOf(t, workflow_run_id)).map((m) => m.recipient_id)).toEqual(['wc-open']);
  });

  it("skips a step the recipient's preferences opt out of, naming the preference", async () => {
    const key = uniqueKey('prefs');
    await activeWorkflow(t, key, { categories: ['marketing'], steps: [feed('feed')] });
    await knock.users.update('pref-wf', {});
    await knock.users.update('pref-cat', {});
    await knock.users.update('pref-type', {});
    await knock.users.setPreferences('pref-wf', 'default', { workflows: { [key]: false } });
    await knock.users.setPreferences('pref-cat', 'default', { categories: { marketing: false } });
    await knock.users.setPreferences('pref-type', 'default', { channel_types: { in_app_feed: false } });
    const { workflow_run_id } = await knock.workflows.trigger(key, {
      recipients: ['pref-wf', 'pref-cat', 'pref-type', { id: 'pref-none' }],
    });
    const runs = await finishedRuns(t, workflow_run_id, 4);
    const reason = (id: string) => runs.find((r) => r.recipient.id === id)!.steps.feed;
    expect(reason('pref-wf')).toMatchObject({ status: 'skipped', reason: 'preference:workflow_opted_out' });
    expect(reason('pref-cat')).toMatchObject({ status: 'skipped', reason: 'preference:category_opted_out' });
    expect(reason('pref-type')).toMatchObject({ status: 'skipped', reason: 'preference:channel_type_opted_out' });
    expect(reason('pref-none')).toMatchObject({ status: 'ok' });
    expect((await messagesOf(t, workflow_run_id)).map((m) => m.recipient_id)).toEqual(['pref-none']);

    // A workflow that overrides preferences sends anyway.
    const override = uniqueKey('prefs-override');
    await activeWorkflow(t, override, { settings: { override_preferences: true }, steps: [feed('feed')] });
    await knock.users.setPreferences('pref-type', 'default', { channel_types: { in_app_feed: false }, workflows: { [override]: false } });
    const forced = await knock.workflows.trigger(override, { recipients: ['pref-type'] });
    const [run] = await finishedRuns(t, forced.workflow_run_id);
    expect(run.steps.feed.status).toBe('ok');
  });

  it('skips a step when the recipient has no address or channel data for it, with the reason', async () => {
    const key = uniqueKey('addresses');
    await activeWorkflow(t, key, {
      steps: [
        {
          type: 'channel',
          ref: 'email',
          channel_key: 'mail',
          template: { subject: 'Hi', html_body: '<p>Hi {{ recipient.name }}</p>', settings: {} },
        },
        { type: 'channel', ref: 'sms', channel_key: 'phone', template: { text_body: 'Hi' } },
        {
          type: 'channel',
          ref: 'push',
          channel_key: 'mobile',
          template: { title: 'Hi', text_body: 'Hi', settings: { delivery_type: 'content' } },
        },
      ],
    });
    const { workflow_run_id } = await knock.workflows.trigger(key, {
      recipients: [
        { id: 'addr-none', name: 'Nobody' },
        { id: 'addr-all', name: 'All', email: 'all@example.com', phone_number: '+15555550100' },
      ],
    });
    const runs = await finishedRuns(t, workflow_run_id, 2);
    const none = runs.find((r) => r.recipient.id === 'addr-none')!;
    expect(none.steps.email).toMatchObject({ status: 'skipped', reason: 'recipient_missing_email' });
    expect(none.steps.sms).toMatchObject({ status: 'skipped', reason: 'recipient_missing_phone_number' });
    expect(none.steps.push).toMatchObject({ status: 'skipped', reason: 'recipient_missing_push_tokens' });
    const all = runs.find((r) => r.recipient.id === 'addr-all')!;
    expect(all.steps.email).toMatchObject({ status: 'ok' });
    expect(all.steps.sms).toMatchObject({ status: 'ok' });
    expect(all.steps.push).toMatchObject({ status: 'skipped', reason: 'recipient_missing_push_tokens' });
    const messages = await messagesOf(t, workflow_run_id);
    expect(messages.map((m) => [m.recipient_id, m.channel_type, m.status]).sort()).toEqual([
      ['addr-all', 'email', 'not_sent'],
      ['addr-all', 'sms', 'not_sent'],
    ]);
    expect(messages.find((m) => m.channel_type === 'email').content).toMatchObject({ to: 'all@example.com', subject: 'Hi' });
  });

  it('pauses a step outside its send window until the window opens in the recipient time zone', async () => {
    const timezone = 'America/St_Johns'; // UTC-03:30 (or -02:30): the window is in local time
    const now = new Date();
    // A minute boundary the worker's clock reaches only when the test moves it there.
    const opens = new Date(Math.ceil((now.getTime() + 10 * 60_000) / 60_000) * 60_000);
    const today = localTime(now, timezone);
    const opening = localTime(opens, timezone);
    // Closed from now until the opening minute (today, or from local midnight of the next day);
    // open at every other time.
    const windows = DAYS.map((day) =>
      day === opening.day
        ? { day, type: 'do_not_send', until: opening.hhmm }
        : day === today.day
          ? { day, type: 'do_not_send' }
          : { day, type: 'send' },
    );
    const key = uniqueKey('send-window');
    await activeWorkflow(t, key, { steps: [feed('feed', 'in the window', { send_windows: windows })] });
    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ id: 'sw-ada', timezone } as never] });

    const [paused] = await pausedRuns(t, workflow_run_id);
    const pause = paused.events.find((e) => e.type === 'RunPaused')!.data;
    expect(pause).toMatchObject({ reason: 'send_window', step_ref: 'feed', resume_at: opens.toISOString() });
    expect(await messagesOf(t, workflow_run_id)).toEqual([]);

    // The worker's clock reaches the opening: its timer fires and the run, deciding by that
    // clock, finds the window open.
    clock.moveTo(opens.getTime());
    const [run] = await finishedRuns(t, workflow_run_id);
    expect(run.steps.feed).toMatchObject({ status: 'ok' });
    const [message] = await messagesOf(t, workflow_run_id);
    expect(message.inserted_at.getTime()).toBeGreaterThanOrEqual(opens.getTime());
  });
});
