import { deciderSpec } from '@notify/testing/decider-spec';
import { fold } from '../shared/decider';
import { engagementStatuses, messageDecider } from './message.decider';
import { MessageCreatedData, MessageEvent } from './message.events';

const id = '11111111-1111-4111-8111-111111111111';
const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-01T00:01:00.000Z';
const message: MessageCreatedData = {
  message_id: id,
  channel: { id: '22222222-2222-4222-8222-222222222222', key: 'email', type: 'email', provider: 'smtp' },
  recipient: { type: 'user', id: 'u1' },
  recipient_snapshot: { email: 'u1@example.com' },
  workflow: { key: 'welcome', categories: [], version: null },
  workflow_run_id: '33333333-3333-4333-8333-333333333333',
  workflow_recipient_run_id: '44444444-4444-4444-8444-444444444444',
  step_ref: 'email_1',
  tenant: null,
  actors: [],
  activities: [],
  total_activities: 1,
  total_actors: 0,
  data: {},
  content: { channel_type: 'email', from: null, to: 'u1@example.com', subject: 'Hi', html_body: '<p>Hi</p>', text_body: 'Hi' },
  metadata: null,
  sandbox: false,
  created_at: t0,
};
const created: MessageEvent = { type: 'MessageCreated', data: message };
const started = (attempt: number): MessageEvent => ({
  type: 'MessageDeliveryAttemptStarted',
  data: { message_id: id, attempt, started_at: t1 },
});
const t2 = '2026-01-01T00:01:22.000Z';
const check = (attempt: number): MessageEvent => ({
  type: 'TimerScheduled',
  data: { timer_id: `${id}:check:${attempt}`, fire_at: t2, purpose: 'delivery_check' },
});
const result = (attempt: number, outcome: 'sent' | 'failed' | 'delivered', retryable = false) => ({
  attempt,
  outcome,
  retryable,
  reason: outcome === 'failed' ? 'HTTP 503' : null,
  provider: 'smtp',
  provider_message_id: outcome === 'failed' ? null : 'p-1',
  logs: [],
});
const completed = (attempt: number, outcome: 'sent' | 'failed' | 'delivered', retryable = false): MessageEvent => ({
  type: 'MessageDeliveryAttemptCompleted',
  data: { ...result(attempt, outcome, retryable), message_id: id, completed_at: t1 },
});

describe('message decider: creation and delivery', () => {
  const spec = deciderSpec(messageDecider);

  it('creates once; in-app is delivered at once, in the one event that creates it (ADR 0233); sandbox is not sent', () => {
    spec.given([]).when({ type: 'CreateMessage', message, delivery: 'provider', now: t1 }).then([created]);
    const createdDelivered: MessageEvent = { type: 'MessageCreated', data: { ...message, delivered_at: t1 } };
    spec.given([]).when({ type: 'CreateMessage', message, delivery: 'now', now: t1 }).then([createdDelivered]);
    spec.given([createdDelivered]).when({ type: 'CreateMessage', message, delivery: 'now', now: t1 }).thenNothing();
    spec
      .given([])
      .when({ type: 'CreateMessage', message, delivery: 'sandbox', now: t0 })
      .then([created, { type: 'MessageNotSent', data: { message_id: id, at: t0, reason: 'sandbox_mode' } }]);
    spec.given([created]).when({ type: 'CreateMessage', message, delivery: 'provider', now: t1 }).thenNothing();
  });

  it('folds a message created delivered as MessageCreated + MessageDelivered (the shape older code wrote)', () => {
    const delivered: MessageEvent = { type: 'MessageDelivered', data: { message_id: id, at: t1 } };
    const compound = fold(messageDecider, [{ type: 'MessageCreated', data: { ...message, delivered_at: t1 } }]);
    expect(compound).toEqual(fold(messageDecider, [created, delivered]));
    expect(compound.status).toBe('delivered');
    // A delivered message takes no delivery attempt, either way it was recorded.
    spec
      .given([{ type: 'MessageCreated', data: { ...message, delivered_at: t1 } }])
      .when({ type: 'StartDeliveryAttempt', attempt: 1, now: t1, checkAt: t2 })
      .thenNothing();
    spec.given([created, delivered]).when({ type: 'StartDeliveryAttempt', attempt: 1, now: t1, checkAt: t2 }).thenNothing();
  });

  it('records an attempt before the provider is called, with the timer that checks it ended, once per attempt number', () => {
    spec
      .given([created])
      .when({ type: 'StartDeliveryAttempt', attempt: 1, now: t1, checkAt: t2 })
      .then([started(1), check(1)]);
    spec
      .given([created, started(1)])
      .when({ type: 'StartDeliveryAttempt', attempt: 1, now: t1, checkAt: t2 })
      .thenNothing();
  });

  it('marks sent on success and ignores a repeated completion', () => {
    const sent: MessageEvent = { type: 'MessageSent', data: { message_id: id, at: t1, attempt: 1, provider_message_id: 'p-1' } };
    spec
      .given([created, started(1)])
      .when({ type: 'CompleteDeliveryAttempt', result: result(1, 'sent'), retryAt: null, now: t1 })
      .then([completed(1, 'sent'), sent]);
    spec
      .given([created, started(1), completed(1, 'sent'), sent])
      .when({ type: 'CompleteDeliveryAttempt', result: result(1, 'sent'), retryAt: null, now: t1 })
      .thenNothing();
    spec
      .given([created, started(1), completed(1, 'sent'), sent])
      .when({ type: 'StartDeliveryAttempt', attempt: 2, now: t1, checkAt: t2 })
      .thenNothing();
  });

  it('schedules a retry on a retryable failure, and gives up when told or when permanent', () => {
    const retryAt = '2026-01-01T00:02:00.000Z';
    spec
      .given([created, started(1)])
      .when({ type: 'CompleteDeliveryAttempt', result: result(1, 'failed', true), retryAt, now: t1 })
      .then([
        completed(1, 'failed', true),
        { type: 'MessageDeliveryAttempted', data: { message_id: id, at: t1, attempt: 1, reason: 'HTTP 503', retry_at: retryAt } },
        { type: 'TimerScheduled', data: { timer_id: `${id}:attempt:2`, fire_at: retryAt, purpose: 'delivery_retry' } },
      ]);
    spec
      .given([created, started(1)])
      .when({ type: 'CompleteDeliveryAttempt', result: result(1, 'failed', true), retryAt: null, now: t1 })
      .then([
        completed(1, 'failed', true),
        { type: 'MessageUndelivered', data: { message_id: id, at: t1, attempts: 1, reason: 'HTTP 503' } },
      ]);
    spec
      .given([created, started(1)])
      .when({ type: 'CompleteDeliveryAttempt', result: result(1, 'failed', false), retryAt, now: t1 })
      .then([
        completed(1, 'failed', false),
        { type: 'MessageUndelivered', data: { message_id: id, at: t1, attempts: 1, reason: 'HTTP 503' } },
      ]);
  });

  it('records a bounce the provider reported at once, without a retry', () => {
    const bounce = { ...result(1, 'failed', false), reason: 'smtp_550: mailbox unavailable', bounced: true };
    spec
      .given([created, started(1)])
      .when({ type: 'CompleteDeliveryAttempt', result: bounce, retryAt: null, now: t1 })
      .then([
        { type: 'MessageDeliveryAttemptCompleted', data: { ...bounce, message_id: id, completed_at: t1 } },
        { type: 'MessageBounced', data: { message_id: id, at: t1, reason: 'smtp_550: mailbox unavailable' } },
      ]);
  });

  it('refuses commands on a message that does not exist', () => {
    spec.given([]).when({ type: 'StartDeliveryAttempt', attempt: 1, now: t1, checkAt: t2 }).thenThrows('resource_missing');
    spec.given([]).when({ type: 'Engage', action: 'seen', now: t1 }).thenThrows('resource_missing');
  });
});

describe('message decider: engagement', () => {
  const spec = deciderSpec(messageDecider);
  const at = { message_id: id, at: t1 };
  const seen: MessageEvent = { type: 'MessageSeen', data: at };
  const read: MessageEvent = { type: 'MessageRead', data: at };

  it.each([
    ['seen', [], [seen]],
    ['seen', [seen], []],
    ['read', [], [seen, read]],
    ['read', [seen], [read]],
    ['read', [seen, read], []],
    ['unread', [seen, read], [{ type: 'MessageUnread', data: at }]],
    ['unread', [], []],
    ['unseen', [seen], [{ type: 'MessageUnseen', data: at }]],
    ['archived', [], [{ type: 'MessageArchived', data: at }]],
    ['unarchived', [{ type: 'MessageArchived', data: at }], [{ type: 'MessageUnarchived', data: at }]],
    ['unarchived', [], []],
  ] as const)('%s after %j records %j', (action, history, expected) => {
    spec
      .given([created, ...(history as unknown as MessageEvent[])])
      .when({ type: 'Engage', action, now: t1 })
      .then(expected as unknown as MessageEvent[]);
  });

  it('records every interaction with its metadata, marking read and seen first', () => {
    spec
      .given([created])
      .when({ type: 'Engage', action: 'interacted', metadata: { button: 'accept' }, now: t1 })
      .then([seen, read, { type: 'MessageInteracted', data: { ...at, metadata: { button: 'accept' } } }]);
    spec
      .given([created, seen, read])
      .when({ type: 'Engage', action: 'link_clicked', url: 'https://x.io', now: t1 })
      .then([{ type: 'MessageLinkClicked', data: { ...at, url: 'https://x.io' } }]);
  });

  it('derives engagement statuses', () => {
    expect(engagementStatuses({ seen_at: t0, read_at: t0, archived_at: null, interacted_at: null, link_clicked_at: null })).toEqual([
      'seen',
      'read',
    ]);
    expect(engagementStatuses({ seen_at: null, read_at: null, archived_at: t0, interacted_at: t0, link_clicked_at: t0 })).toEqual([
      'interacted',
      'link_clicked',
      'archived',
    ]);
  });
});
