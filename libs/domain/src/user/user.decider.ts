import { DomainError, invalidParams, resourceMissing } from '../shared/errors';
import { assertNever, Decider } from '../shared/decider';
import { decideAspects, emptyAspects, evolveAspects, RecipientAspects } from '../recipient/recipient-aspects';
import { UserCommand } from './user.commands';
import { UserEvent } from './user.events';
import { sameJson } from '../shared/same-json';

export interface UserState {
  exists: boolean;
  /** Whether the stream holds anything not yet erased (an erasure then has something to do). */
  erasable: boolean;
  properties: Record<string, unknown>;
  aspects: RecipientAspects;
}

/** Merges properties: a key set to null is removed, others replace the previous value. */
export function mergeProperties(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** The properties of a patch that change the current ones (null removes; undefined is ignored). */
export function changedProperties(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null ? key in current : !sameJson(current[key], value)) changed[key] = value;
  }
  return changed;
}

const initialState = (): UserState => ({ exists: false, erasable: false, properties: {}, aspects: emptyAspects() });

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState,

  evolve(state, event) {
    if (event.type === 'UserErased') return initialState();
    return { ...evolveKept(state, event), erasable: true };
  },

  decide(command, state) {
    return decideUser(command, state);
  },
};

function evolveKept(state: UserState, event: Exclude<UserEvent, { type: 'UserErased' }>): UserState {
  switch (event.type) {
    case 'UserIdentified':
      return { ...state, exists: true, properties: mergeProperties(state.exists ? state.properties : {}, event.data.properties) };
    case 'UserDeleted':
      return initialState();
    case 'UserMerged': {
      let aspects = state.aspects;
      for (const p of event.data.preference_sets)
        aspects = { ...aspects, preferences: { ...aspects.preferences, [p.preference_set_id]: p.preferences } };
      for (const c of event.data.channel_data)
        aspects = {
          ...aspects,
          channelData: { ...aspects.channelData, [c.channel_id]: { channel_type: c.channel_type, provider: c.provider, data: c.data } },
        };
      return { ...state, aspects };
    }
    case 'PreferenceSetUpdated':
    case 'PreferenceSetDeleted':
    case 'ChannelDataSet':
    case 'ChannelDataUnset':
      return { ...state, aspects: evolveAspects(state.aspects, event) };
    default:
      return assertNever(event);
  }
}

function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'IdentifyUser': {
      // Only what changes is recorded; identifying with the same properties again is a no-op.
      const changed = changedProperties(state.properties, command.properties);
      const aspects = decideAspects({ type: 'user', id: command.userId }, state.aspects, command.aspects ?? []);
      if (state.exists && Object.keys(changed).length === 0 && aspects.length === 0) return [];
      const identified: UserEvent[] =
        state.exists && Object.keys(changed).length === 0
          ? []
          : [{ type: 'UserIdentified', data: { user_id: command.userId, properties: changed, identified_at: command.now } }];
      return [...identified, ...aspects];
    }
    case 'DeleteUser':
      if (!state.exists) return [];
      return [{ type: 'UserDeleted', data: { user_id: command.userId, deleted_at: command.now } }];
    case 'EraseUser': {
      // Nothing recorded since the last erasure (or ever): nothing to erase again.
      if (!state.erasable) return [];
      const erased: UserEvent = { type: 'UserErased', data: { user_id: command.userId, reason: command.reason, erased_at: command.now } };
      return state.exists ? [{ type: 'UserDeleted', data: { user_id: command.userId, deleted_at: command.now } }, erased] : [erased];
    }
    case 'UpdateUserAspects': {
      const events = decideAspects({ type: 'user', id: command.userId }, state.aspects, command.commands);
      if (events.length === 0 || state.exists) return events;
      return [{ type: 'UserIdentified', data: { user_id: command.userId, properties: {}, identified_at: command.now } }, ...events];
    }
    case 'MergeUser': {
      if (command.fromUserId === command.userId) {
        throw invalidParams(
          [{ field: 'from_user_id', message: 'cannot be the user merged into', type: 'merge_into_self' }],
          'A user cannot be merged into itself',
        );
      }
      if (!state.exists) throw resourceMissing('user');
      if (!command.from.exists)
        throw new DomainError('resource_missing', `The user ${command.fromUserId} to merge from does not exist`, 'not_found');
      const preference_sets = Object.entries(command.from.aspects.preferences)
        .filter(([id]) => !state.aspects.preferences[id])
        .map(([preference_set_id, preferences]) => ({ preference_set_id, preferences }));
      const channel_data = Object.entries(command.from.aspects.channelData)
        .filter(([id]) => !state.aspects.channelData[id])
        .map(([channel_id, c]) => ({ channel_id, ...c }));
      return [
        {
          type: 'UserMerged',
          data: { user_id: command.userId, from_user_id: command.fromUserId, preference_sets, channel_data, merged_at: command.now },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}
