import type { AddressSuppressed, AddressUnsuppressed, EventOf } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { resourceMissing } from '../shared/errors';

export type SuppressionEvent = EventOf<typeof AddressSuppressed> | EventOf<typeof AddressUnsuppressed>;
export type SuppressionReason = EventOf<typeof AddressSuppressed>['data']['reason'];

export type SuppressionCommand =
  | {
      type: 'Suppress';
      address: string;
      reason: SuppressionReason;
      userId: string | null;
      messageId: string | null;
      source: string | null;
      detail: string | null;
      now: string;
    }
  | { type: 'Unsuppress'; address: string; now: string };

export interface SuppressionState {
  suppressed: boolean;
  userId: string | null;
}

/** Addresses compare without case and surrounding space. */
export const normaliseAddress = (address: string) => address.trim().toLowerCase();

/**
 * An address on an environment's suppression list: added by a hard bounce, a complaint or by hand;
 * adding it again (a second bounce, a replay) records nothing; removing it lets messages through.
 */
export const suppressionDecider: Decider<SuppressionState, SuppressionCommand, SuppressionEvent> = {
  initialState: () => ({ suppressed: false, userId: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'AddressSuppressed':
        return { suppressed: true, userId: event.data.user_id ?? state.userId };
      case 'AddressUnsuppressed':
        return { ...state, suppressed: false };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'Suppress':
        if (state.suppressed) return [];
        return [
          {
            type: 'AddressSuppressed',
            data: {
              address: normaliseAddress(command.address),
              user_id: command.userId ?? state.userId,
              at: command.now,
              reason: command.reason,
              message_id: command.messageId,
              source: command.source,
              detail: command.detail,
            },
          },
        ];
      case 'Unsuppress':
        if (!state.suppressed) throw resourceMissing('suppression');
        return [
          { type: 'AddressUnsuppressed', data: { address: normaliseAddress(command.address), user_id: state.userId, at: command.now } },
        ];
      default:
        return assertNever(command);
    }
  },
};

/** What a receipt adds to the suppression list: hard bounces and complaints, nothing else. */
export function suppressionReasonOf(kind: string, bounceType: 'hard' | 'soft' | null): SuppressionReason | null {
  if (kind === 'complained') return 'complaint';
  if (kind === 'bounced' && bounceType === 'hard') return 'hard_bounce';
  return null;
}
