import type { ConsoleLoginLinkRedeemed, EventOf } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';

export type ConsoleLoginEvent = EventOf<typeof ConsoleLoginLinkRedeemed>;
export type ConsoleLoginCommand = {
  type: 'RedeemLoginLink';
  linkId: string;
  memberId: string;
  sessionExpiresAt: string;
  now: string;
};
export interface ConsoleLoginState {
  redeemed: boolean;
}

export const loginLinkUsed = () =>
  new DomainError('login_link_used', 'This login link has already been used; ask for a new one', 'unauthenticated');

/** A login link signs in once: its stream holds at most one redemption (ADR 0210). */
export const consoleLoginDecider: Decider<ConsoleLoginState, ConsoleLoginCommand, ConsoleLoginEvent> = {
  initialState: () => ({ redeemed: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'ConsoleLoginLinkRedeemed':
        return { redeemed: true };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RedeemLoginLink':
        if (state.redeemed) throw loginLinkUsed();
        return [
          {
            type: 'ConsoleLoginLinkRedeemed',
            data: {
              link_id: command.linkId,
              member_id: command.memberId,
              session_expires_at: command.sessionExpiresAt,
              redeemed_at: command.now,
            },
          },
        ];
      default:
        return assertNever(command.type);
    }
  },
};
