import type {
  EventOf,
  PreferenceCategoryArchived,
  PreferenceCategoryCreated,
  PreferenceCenterConfigDataT,
  PreferenceCenterConfigured,
} from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { resourceMissing } from '../shared/errors';
import { sameJson } from '../shared/same-json';

export type PreferenceCategoryEvent = EventOf<typeof PreferenceCategoryCreated> | EventOf<typeof PreferenceCategoryArchived>;
export type PreferenceCategoryCommand =
  { type: 'UpsertPreferenceCategory'; name: string; now: string } | { type: 'ArchivePreferenceCategory'; name: string; now: string };
export interface PreferenceCategoryState {
  /** Whether a category of that name is live (created and not archived since). */
  live: boolean;
}

/**
 * A preference category is created once; an upsert of a live one changes nothing (the reference
 * answers the existing category), an archived one is created anew. Archiving an absent or
 * archived category is not found.
 */
export const preferenceCategoryDecider: Decider<PreferenceCategoryState, PreferenceCategoryCommand, PreferenceCategoryEvent> = {
  initialState: () => ({ live: false }),
  evolve(_state, event) {
    switch (event.type) {
      case 'PreferenceCategoryCreated':
        return { live: true };
      case 'PreferenceCategoryArchived':
        return { live: false };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'UpsertPreferenceCategory':
        if (state.live) return [];
        return [{ type: 'PreferenceCategoryCreated', data: { name: command.name, created_at: command.now } }];
      case 'ArchivePreferenceCategory':
        if (!state.live) throw resourceMissing('preference category');
        return [{ type: 'PreferenceCategoryArchived', data: { name: command.name, archived_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

export type PreferenceCenterEvent = EventOf<typeof PreferenceCenterConfigured>;
export type PreferenceCenterCommand =
  | { type: 'ConfigurePreferenceCenter'; environment: string; config: PreferenceCenterConfigDataT; enabled?: boolean; now: string }
  | { type: 'ResetPreferenceCenter'; environment: string; defaults: PreferenceCenterConfigDataT; now: string };
export interface PreferenceCenterState {
  current?: { config: PreferenceCenterConfigDataT; enabled: boolean };
}

/**
 * An environment's preference center. `enabled` left out keeps the stored flag (true at first);
 * a reset puts the default content back and keeps the flag. A change to the same content records nothing.
 */
export const preferenceCenterDecider: Decider<PreferenceCenterState, PreferenceCenterCommand, PreferenceCenterEvent> = {
  initialState: () => ({}),
  evolve(_state, event) {
    return { current: { config: event.data.config, enabled: event.data.enabled } };
  },
  decide(command, state) {
    const enabledBefore = state.current?.enabled ?? true;
    let next: { config: PreferenceCenterConfigDataT; enabled: boolean };
    switch (command.type) {
      case 'ConfigurePreferenceCenter':
        next = { config: command.config, enabled: command.enabled ?? enabledBefore };
        break;
      case 'ResetPreferenceCenter':
        next = { config: command.defaults, enabled: enabledBefore };
        break;
      default:
        return assertNever(command);
    }
    if (state.current && sameJson(state.current, next)) return [];
    return [{ type: 'PreferenceCenterConfigured', data: { environment: command.environment, ...next, configured_at: command.now } }];
  },
};
