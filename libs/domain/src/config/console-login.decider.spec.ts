import { deciderSpec } from '@notify/testing/decider-spec';
import { consoleLoginDecider, ConsoleLoginEvent } from './console-login.decider';

const now = '2026-01-01T00:00:00.000Z';
const redeem = {
  type: 'RedeemLoginLink' as const,
  linkId: '00000000-0000-4000-8000-000000000001',
  memberId: '00000000-0000-4000-8000-000000000002',
  sessionExpiresAt: '2026-01-01T12:00:00.000Z',
  now,
};
const redeemed: ConsoleLoginEvent = {
  type: 'ConsoleLoginLinkRedeemed',
  data: { link_id: redeem.linkId, member_id: redeem.memberId, session_expires_at: redeem.sessionExpiresAt, redeemed_at: now },
};

describe('console login link decider', () => {
  const spec = deciderSpec(consoleLoginDecider);

  it('records the first use of a link', () => {
    spec.given([]).when(redeem).then([redeemed]);
  });

  it('refuses a second use', () => {
    expect(() => consoleLoginDecider.decide(redeem, consoleLoginDecider.evolve(consoleLoginDecider.initialState(), redeemed))).toThrow(
      expect.objectContaining({ code: 'login_link_used' }),
    );
  });
});
