import type { EventOf, GuideEngagementReset } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';

/**
 * A user's engagement with one guide (in a tenant's context or none). Its generation names the
 * current set of guide messages: a reset starts a new generation, so the next engagement records
 * fresh messages while the old ones stay in the message history (ADR 0187).
 */
export type GuideEngagementEvent = EventOf<typeof GuideEngagementReset>;
export type GuideEngagementCommand = {
  type: 'ResetGuideEngagement';
  guideKey: string;
  userId: string;
  tenant: string | null;
  /** Whether the current generation has any engagement (looked up): resetting none records nothing. */
  engaged: boolean;
  now: string;
};
export interface GuideEngagementState {
  generation: number;
}

export const guideEngagementStream = (environment: string, userId: string, guideKey: string, tenant: string | null) =>
  `guide_engagement-${environment}-${guideKey}-${tenant ?? ''}-${userId}`;

export const guideEngagementDecider: Decider<GuideEngagementState, GuideEngagementCommand, GuideEngagementEvent> = {
  initialState: () => ({ generation: 0 }),
  evolve(state, event) {
    switch (event.type) {
      case 'GuideEngagementReset':
        return { generation: event.data.generation };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ResetGuideEngagement':
        if (!command.engaged) return [];
        return [
          {
            type: 'GuideEngagementReset',
            data: {
              guide_key: command.guideKey,
              user_id: command.userId,
              tenant: command.tenant,
              generation: state.generation + 1,
              reset_at: command.now,
            },
          },
        ];
      default:
        return assertNever(command.type);
    }
  },
};
