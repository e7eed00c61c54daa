import { RecordedEvent } from '@notify/eventstore';
import { explainRun, formatExplanation } from './explain';

let n = 0;
function ev(streamId: string, type: string, data: Record<string, unknown>): RecordedEvent {
  n++;
  return {
    id: `id-${n}`,
    type,
    streamId,
    revision: 0,
    globalPosition: BigInt(n),
    position: n.toString(16).padStart(32, '0'),
    data,
    metadata: { environment: 'development', schema_version: 1, correlation_id: 'req-1' },
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
  };
}

const run = 'run-development-r1';
const msg = 'message-development-m1';
const recipient = { type: 'user', id: 'u1' };

function trigger() {
  return [
    ev('workflow_run-development-w1', 'WorkflowTriggered', {
      workflow_run_id: 'w1',
      workflow: { key: 'welcome' },
      recipients: [recipient],
      actor: null,
      tenant: null,
      data: { plan: 'pro' },
      trigger_source: { type: 'api' },
      triggered_at: '2026-01-01T00:00:00Z',
    }),
    ev(run, 'RunEnqueued', { run_id: 'r1', workflow_run_id: 'w1', workflow_key: 'welcome', recipient }),
  ];
}

describe('explaining a run from its events', () => {
  it('explains compound entries (ADR 0233) as the separate events older code wrote', () => {
    const step = { step_ref: 'inbox', step_type: 'channel', status: 'ok', reason: null, output: { message_id: 'm1' }, attempt: 1, at: 'x' };
    const created = { message_id: 'm1', channel: { key: 'in-app' }, step_ref: 'inbox' };
    const separate = explainRun([
      ...trigger(),
      ev(run, 'StepCompleted', { run_id: 'r1', ...step }),
      ev(run, 'RunCompleted', { run_id: 'r1', outcome: 'ended', reason: null, at: 'x' }),
      ev(msg, 'MessageCreated', created),
      ev(msg, 'MessageDelivered', { message_id: 'm1', at: 'x' }),
    ]);
    const compound = explainRun([
      ...trigger(),
      ev(run, 'RunCompleted', { run_id: 'r1', outcome: 'ended', reason: null, at: 'x', step }),
      ev(msg, 'MessageCreated', { ...created, delivered_at: 'x' }),
    ]);
    const withoutLogPlaces = (x: typeof separate) => ({ ...x, timeline: x.timeline.map(({ at: _a, global_position: _g, ...t }) => t) });
    expect(withoutLogPlaces(compound)).toEqual(withoutLogPlaces(separate));
    expect(compound).toMatchObject({ verdict: 'sent', steps: [{ step_ref: 'inbox', status: 'ok' }], messages: [{ status: 'delivered' }] });
    expect(compound.timeline.map((t) => t.type)).toEqual([
      'WorkflowTriggered',
      'RunEnqueued',
      'StepCompleted',
      'RunCompleted',
      'MessageCreated',
      'MessageDelivered',
    ]);
  });

  it('says a run sent when a message of it was sent, with the trigger, steps, attempts and a timeline in log order', () => {
    const events = [
      ...trigger(),
      ev(run, 'StepCompleted', {
        step_ref: 'email',
        step_type: 'channel',
        status: 'ok',
        reason: null,
        output: { message_id: 'm1' },
        attempt: null,
        at: 'x',
      }),
      ev(msg, 'MessageCreated', { message_id: 'm1', channel: { key: 'postmark' }, step_ref: 'email' }),
      ev(msg, 'MessageDeliveryAttemptCompleted', {
        message_id: 'm1',
        attempt: 1,
        outcome: 'failed',
        reason: 'timeout',
        provider: 'postmark',
        provider_message_id: null,
      }),
      ev(msg, 'MessageDeliveryAttemptCompleted', {
        message_id: 'm1',
        attempt: 2,
        outcome: 'sent',
        reason: null,
        provider: 'postmark',
        provider_message_id: 'p-1',
      }),
      ev(msg, 'MessageSent', { message_id: 'm1', attempt: 2 }),
      ev(run, 'RunCompleted', { run_id: 'r1', outcome: 'ended', reason: null }),
    ];
    const x = explainRun([...events].reverse());
    expect(x).toMatchObject({
      run_id: 'r1',
      workflow_run_id: 'w1',
      workflow: 'welcome',
      recipient,
      verdict: 'sent',
      reason: null,
      trigger: { source: { type: 'api' }, data: { plan: 'pro' }, correlation_id: 'req-1' },
      steps: [{ step_ref: 'email', status: 'ok', output: { message_id: 'm1' } }],
      messages: [
        {
          message_id: 'm1',
          status: 'sent',
          attempts: [
            { attempt: 1, outcome: 'failed', reason: 'timeout' },
            { attempt: 2, outcome: 'sent' },
          ],
        },
      ],
    });
    expect(x.timeline.map((t) => t.type)).toEqual(events.map((e) => e.type));
    const text = formatExplanation(x);
    expect(text.split('\n')[0]).toBe('welcome run r1 for user u1: sent');
    expect(text).toContain('delivery attempt 1 of message m1 via postmark: failed (timeout)');
  });

  it('names the message on each of its lines that says why it was not delivered (a run can have several)', () => {
    const other = 'message-development-m2';
    const text = formatExplanation(
      explainRun([
        ...trigger(),
        ev(msg, 'MessageCreated', { message_id: 'm1', channel: { key: 'postmark' }, step_ref: 'email' }),
        ev(other, 'MessageCreated', { message_id: 'm2', channel: { key: 'twilio' }, step_ref: 'sms' }),
        ev(msg, 'MessageUndelivered', { message_id: 'm1', at: 'x', attempts: 3, reason: 'provider_error' }),
        ev(other, 'MessageNotSent', { message_id: 'm2', at: 'x', reason: 'no_phone_number' }),
      ]),
    );
    expect(text).toContain('message m1 undelivered: provider_error');
    expect(text).toContain('message m2 not sent: no_phone_number');
  });

  it('names the step that decided when nothing was sent', () => {
    const x = explainRun([
      ...trigger(),
      ev(run, 'StepCompleted', {
        step_ref: 'email',
        step_type: 'channel',
        status: 'skipped',
        reason: 'preference: email off',
        output: null,
        at: 'x',
      }),
      ev(run, 'RunCompleted', { run_id: 'r1', outcome: 'ended', reason: null }),
    ]);
    expect(x.verdict).toBe('not_sent');
    expect(x.reason).toBe('step email skipped: preference: email off');
  });

  it('gives a halting reason, a cancellation, and a run still going as they are', () => {
    const halted = explainRun([...trigger(), ev(run, 'RunCompleted', { run_id: 'r1', outcome: 'halted', reason: 'throttled' })]);
    expect([halted.verdict, halted.reason]).toEqual(['not_sent', 'throttled']);
    const cancelled = explainRun([...trigger(), ev(run, 'RunCancelled', { run_id: 'r1', reason: 'cancellation_key' })]);
    expect([cancelled.verdict, cancelled.reason]).toEqual(['cancelled', 'cancellation_key']);
    expect(explainRun(trigger()).verdict).toBe('running');
  });

  describe("a decision's inputs (ADR 0219)", () => {
    const conditions = {
      holds: false,
      mode: 'all',
      conditions: [
        { variable: 'data.plan', operator: 'equal_to', argument: 'pro', value: 'free', compared_to: 'pro', result: false },
        { variable: 'recipient.age', operator: 'greater_than', argument: 'vars.min_age', value: 30, compared_to: 18, result: true },
      ],
    };
    const optedOut = { setting: 'channel_types.email', layer: 'recipient_default', value: false, result: 'opted_out' };
    const preferences = {
      commercial: false,
      override_preferences: false,
      channel_type: 'email',
      checked: [optedOut],
      decided_by: optedOut,
    };

    it('shows the values each condition compared and the layer whose preference decided, as JSON and as text', () => {
      const x = explainRun([
        ...trigger(),
        ev(run, 'StepCompleted', {
          step_ref: 'vip',
          step_type: 'in_app_feed',
          status: 'skipped',
          reason: 'step_conditions_not_met',
          output: null,
          at: 'x',
          inputs: { user_id: 'u1', conditions },
        }),
        ev(run, 'StepCompleted', {
          step_ref: 'email',
          step_type: 'email',
          status: 'skipped',
          reason: 'preference:channel_type_opted_out',
          output: null,
          at: 'y',
          inputs: { user_id: 'u1', preferences },
        }),
        ev(run, 'RunCompleted', { run_id: 'r1', outcome: 'ended', reason: null }),
      ]);
      expect(x.steps.map((s) => s.inputs)).toEqual([
        { user_id: 'u1', conditions },
        { user_id: 'u1', preferences },
      ]);
      const [vip, email] = x.timeline.filter((t) => t.type === 'StepCompleted');
      expect(vip.details).toEqual([
        'conditions (all of 2) did not hold',
        '  data.plan equal_to "pro": data.plan was "free" -> false',
        '  recipient.age greater_than "vars.min_age" (= 18): recipient.age was 30 -> true',
      ]);
      expect(email.details).toEqual([
        "preferences: blocked by channel_types.email = false from the user's own set (recipient_default): opts out",
      ]);
      const text = formatExplanation(x);
      expect(text).toContain('data.plan equal_to "pro": data.plan was "free" -> false');
      expect(text).toContain("blocked by channel_types.email = false from the user's own set (recipient_default)");
    });

    it('shows the workflow conditions that halted a run, inputs that were erased, and nothing for events recorded before', () => {
      const halted = explainRun([
        ...trigger(),
        ev(run, 'RunCompleted', {
          run_id: 'r1',
          outcome: 'halted',
          reason: 'workflow_conditions_not_met',
          inputs: { user_id: 'u1', conditions },
        }),
      ]);
      expect(halted.workflow_conditions).toEqual({ user_id: 'u1', conditions });
      expect(halted.timeline[halted.timeline.length - 1].details[0]).toBe('conditions (all of 2) did not hold');
      const erased = explainRun([
        ...trigger(),
        ev(run, 'StepCompleted', {
          step_ref: 'email',
          step_type: 'email',
          status: 'skipped',
          reason: 'x',
          at: 'x',
          inputs: { $erased: true },
        }),
      ]);
      expect(erased.steps[0].inputs).toEqual({ $erased: true });
      expect(erased.timeline[erased.timeline.length - 1].details).toEqual(['inputs erased (the recipient was erased)']);
      const before = explainRun([
        ...trigger(),
        ev(run, 'StepCompleted', { step_ref: 'email', step_type: 'email', status: 'ok', reason: null, at: 'x' }),
      ]);
      expect(before.steps[0].inputs).toBeNull();
      expect(before.timeline.every((t) => t.details.length === 0)).toBe(true);
    });
  });
});

describe('throttle and batch state, channel data, pauses and provider responses (ADR 0239)', () => {
  it('shows the window a throttle counted, the batch a run joined, the channel data used, what set a pause, and what the provider answered', () => {
    const throttle = {
      key: 'default',
      limit: 1,
      window_ms: 3_600_000,
      window_start: '2026-01-01T00:00:00.000Z',
      passes_in_window: 0,
      result: 'passed',
    };
    const batch = {
      key: 'default',
      batch_id: 'b1',
      role: 'owner',
      mode: 'accumulate',
      window_type: 'fixed',
      opened_at: '2026-01-01T00:00:05.000Z',
      closes_at: '2026-01-01T00:05:05.000Z',
      extend_until: null,
      items: 1,
      max_items: null,
      closed: null,
    };
    const channelData = {
      channel_id: 'ch1',
      kind: 'tokens',
      present: true,
      source: 'channel_data',
      count: 1,
      refs: ['sha256:0123456789ab'],
    };
    const x = explainRun([
      ...trigger(),
      ev(run, 'StepCompleted', {
        step_ref: 'th',
        step_type: 'throttle',
        status: 'ok',
        reason: null,
        at: 'x',
        inputs: { user_id: 'u1', throttle },
      }),
      ev(run, 'RunPaused', {
        step_ref: 'b',
        reason: 'batch',
        resume_at: null,
        at: 'x',
        inputs: { user_id: 'u1', batch, pause: { reason: 'batch', resume_at: batch.closes_at } },
      }),
      ev(run, 'RunPaused', {
        step_ref: 'd',
        reason: 'delay',
        resume_at: '2026-01-02T00:00:00.000Z',
        at: 'x',
        inputs: {
          user_id: 'u1',
          pause: {
            reason: 'delay',
            resume_at: '2026-01-02T00:00:00.000Z',
            delay: { delay_for: null, delay_until_field_path: 'data.at', field_value: '2026-01-02T00:00:00.000Z' },
          },
        },
      }),
      ev(run, 'StepCompleted', {
        step_ref: 'push',
        step_type: 'push',
        status: 'ok',
        reason: null,
        at: 'x',
        inputs: { user_id: 'u1', channel_data: channelData },
      }),
      ev(msg, 'MessageCreated', { message_id: 'm1', channel: { key: 'fcm' }, step_ref: 'push' }),
      ev(msg, 'MessageDeliveryAttemptCompleted', {
        message_id: 'm1',
        attempt: 1,
        outcome: 'sent',
        reason: null,
        provider: 'fcm',
        provider_message_id: 'projects/p/messages/42',
        logs: [{ request: {}, response: { status: 200, headers: {}, body: {} }, duration_ms: 12 }],
      }),
      ev(msg, 'MessageDeliveryAttemptCompleted', {
        message_id: 'm1',
        attempt: 2,
        outcome: 'failed',
        reason: 'erased',
        provider: 'fcm',
        provider_message_id: null,
        logs: { $erased: true },
      }),
    ]);
    expect(x.steps[0].inputs).toMatchObject({ throttle });
    expect(x.pauses.map((p) => [p.step_ref, p.reason, p.resume_at])).toEqual([
      ['b', 'batch', null],
      ['d', 'delay', '2026-01-02T00:00:00.000Z'],
    ]);
    expect(x.pauses[0].inputs).toMatchObject({ batch, pause: { resume_at: batch.closes_at } });
    expect(x.messages[0].attempts.map((a) => [a.provider_message_id, a.responses])).toEqual([
      ['projects/p/messages/42', [{ status: 200, error: null, duration_ms: 12 }]],
      [null, 'erased'],
    ]);
    const details = x.timeline.map((t) => t.details);
    expect(details[2]).toEqual(['throttle "default": 0 of 1 passed since 2026-01-01T00:00:00.000Z (window 3600000 ms) -> passed']);
    expect(details[3]).toEqual([
      'batch b1 (accumulate, fixed, key "default"): owner, 1 item(s), window 2026-01-01T00:00:05.000Z to 2026-01-01T00:05:05.000Z',
      "paused until 2026-01-01T00:05:05.000Z: the batch window's timer",
    ]);
    expect(details[4]).toEqual(['paused until 2026-01-02T00:00:00.000Z by the delay: data.at was "2026-01-02T00:00:00.000Z"']);
    expect(details[5]).toEqual(['channel ch1: 1 tokens from channel data: sha256:0123456789ab']);
    expect(details[7]).toEqual(['provider answered HTTP 200 in 12 ms', 'provider message id projects/p/messages/42']);
    expect(details[8]).toEqual(['provider responses erased (the recipient was erased)']);
    expect(formatExplanation(x)).toContain('provider answered HTTP 200 in 12 ms');
  });
});
