import { deciderSpec } from '@notify/testing/decider-spec';
import { suppressionDecider, SuppressionEvent, suppressionReasonOf } from './suppression';

const t0 = '2026-01-01T00:00:00.000Z';
const suppress = {
  type: 'Suppress' as const,
  address: ' A@X.test ',
  reason: 'hard_bounce' as const,
  userId: 'u1',
  messageId: '11111111-1111-4111-8111-111111111111',
  source: 'ses',
  detail: '550',
  now: t0,
};
const suppressed: SuppressionEvent = {
  type: 'AddressSuppressed',
  data: { address: 'a@x.test', user_id: 'u1', at: t0, reason: 'hard_bounce', message_id: suppress.messageId, source: 'ses', detail: '550' },
};

describe('suppression decider', () => {
  const spec = deciderSpec(suppressionDecider);

  it('suppresses a normalised address once', () => {
    spec.given([]).when(suppress).then([suppressed]);
    spec
      .given([suppressed])
      .when({ ...suppress, reason: 'complaint' })
      .then([]);
  });

  it('unsuppresses a suppressed address, and refuses one that is not', () => {
    spec
      .given([suppressed])
      .when({ type: 'Unsuppress', address: 'a@x.test', now: t0 })
      .then([{ type: 'AddressUnsuppressed', data: { address: 'a@x.test', user_id: 'u1', at: t0 } }]);
    spec.given([]).when({ type: 'Unsuppress', address: 'a@x.test', now: t0 }).thenThrows('resource_missing');
  });

  it('hard bounces and complaints suppress; soft bounces and other receipts do not', () => {
    expect(suppressionReasonOf('bounced', 'hard')).toBe('hard_bounce');
    expect(suppressionReasonOf('complained', null)).toBe('complaint');
    expect(suppressionReasonOf('bounced', 'soft')).toBeNull();
    expect(suppressionReasonOf('delivered', null)).toBeNull();
  });
});
