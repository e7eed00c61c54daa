import { deciderSpec } from '@notify/testing/decider-spec';
import { messageDecider } from './message.decider';
import { MessageEvent, ReceiptData } from './message.events';

const id = '11111111-1111-4111-8111-111111111111';
const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-01T00:05:00.000Z';
const created = {
  type: 'MessageCreated',
  data: {
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
  },
} as MessageEvent;
const sent: MessageEvent = { type: 'MessageSent', data: { message_id: id, at: t0, attempt: 1, provider_message_id: 'p-1' } };

type Receipt = Omit<ReceiptData, 'message_id' | 'at'>;
const receipt = (kind: Receipt['kind'], extra: Partial<Receipt> = {}): Receipt => ({
  receipt_id: `r-${kind}`,
  source: 'sendgrid',
  kind,
  bounce_type: null,
  reason: null,
  url: null,
  recipient: 'u1@example.com',
  payload: {},
  occurred_at: t1,
  ...extra,
});
const recorded = (r: Receipt): MessageEvent => ({ type: 'MessageReceiptRecorded', data: { ...r, message_id: id, at: t1 } });
const when = (r: Receipt) => ({ type: 'RecordReceipt' as const, receipt: r, now: t1 });

describe('message decider: delivery receipts', () => {
  const spec = deciderSpec(messageDecider);

  it('delivered moves a sent message to delivered; a replay of the same receipt records nothing', () => {
    const r = receipt('delivered');
    spec
      .given([created, sent])
      .when(when(r))
      .then([recorded(r), { type: 'MessageDelivered', data: { message_id: id, at: t1 } }]);
    spec
      .given([created, sent, recorded(r)])
      .when(when(r))
      .then([]);
  });

  it('a hard bounce after delivered wins, with its type in the reason; a second bounce changes no status', () => {
    const r = receipt('bounced', { bounce_type: 'hard', reason: '550 no such user' });
    const delivered: MessageEvent = { type: 'MessageDelivered', data: { message_id: id, at: t0 } };
    spec
      .given([created, sent, delivered])
      .when(when(r))
      .then([recorded(r), { type: 'MessageBounced', data: { message_id: id, at: t1, reason: 'hard_bounce: 550 no such user' } }]);
    const again = receipt('bounced', { receipt_id: 'r-2', bounce_type: 'soft' });
    const bounced: MessageEvent = { type: 'MessageBounced', data: { message_id: id, at: t1, reason: 'x' } };
    spec
      .given([created, sent, bounced])
      .when(when(again))
      .then([recorded(again)]);
  });

  it('a failure ends a message still in hand as undelivered; not one already delivered', () => {
    const r = receipt('failed', { reason: 'twilio error 30003' });
    spec
      .given([created, sent])
      .when(when(r))
      .then([recorded(r), { type: 'MessageUndelivered', data: { message_id: id, at: t1, attempts: 0, reason: 'twilio error 30003' } }]);
    spec
      .given([created, sent, { type: 'MessageDelivered', data: { message_id: id, at: t0 } }])
      .when(when(r))
      .then([recorded(r)]);
  });

  it('an open reads the message; a click records the link; a complaint only records itself', () => {
    const at = { message_id: id, at: t1 };
    spec
      .given([created, sent])
      .when(when(receipt('opened')))
      .then([recorded(receipt('opened')), { type: 'MessageSeen', data: at }, { type: 'MessageRead', data: at }]);
    const click = receipt('clicked', { url: 'https://x.test' });
    spec
      .given([created, sent])
      .when(when(click))
      .then([
        recorded(click),
        { type: 'MessageSeen', data: at },
        { type: 'MessageRead', data: at },
        { type: 'MessageLinkClicked', data: { ...at, url: 'https://x.test' } },
      ]);
    spec
      .given([created, sent])
      .when(when(receipt('complained')))
      .then([recorded(receipt('complained'))]);
  });

  it('refuses a receipt about a message that does not exist', () => {
    spec
      .given([])
      .when(when(receipt('delivered')))
      .thenThrows('resource_missing');
  });
});
