import type { EventOf, GuideGroupUpdated } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';

/**
 * An environment's guide group (ADR 0166): display order, the guides that ignore the throttle,
 * and the throttle interval. Setting what it already is records nothing.
 */
export type GuideGroupEvent = EventOf<typeof GuideGroupUpdated>;
export interface GuideGroupSettings {
  display_sequence: string[];
  display_sequence_unthrottled: string[];
  display_interval: number | null;
}
export type GuideGroupCommand = { type: 'SetGuideGroup'; key: string; settings: GuideGroupSettings; now: string };
export interface GuideGroupState {
  settings: GuideGroupSettings | null;
  createdAt: string | null;
  updatedAt: string | null;
}

export const guideGroupStream = (environment: string, key: string) => `guide_group-${environment}-${key}`;

const same = (a: GuideGroupSettings, b: GuideGroupSettings) =>
  a.display_interval === b.display_interval &&
  JSON.stringify(a.display_sequence) === JSON.stringify(b.display_sequence) &&
  JSON.stringify([...a.display_sequence_unthrottled].sort()) === JSON.stringify([...b.display_sequence_unthrottled].sort());

export const guideGroupDecider: Decider<GuideGroupState, GuideGroupCommand, GuideGroupEvent> = {
  initialState: () => ({ settings: null, createdAt: null, updatedAt: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'GuideGroupUpdated': {
        const { display_sequence, display_sequence_unthrottled, display_interval, updated_at } = event.data;
        return {
          settings: { display_sequence, display_sequence_unthrottled, display_interval },
          createdAt: state.createdAt ?? updated_at,
          updatedAt: updated_at,
        };
      }
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'SetGuideGroup':
        if (state.settings && same(state.settings, command.settings)) return [];
        return [{ type: 'GuideGroupUpdated', data: { key: command.key, ...command.settings, updated_at: command.now } }];
      default:
        return assertNever(command.type);
    }
  },
};
