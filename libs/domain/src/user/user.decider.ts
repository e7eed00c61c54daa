import { assertNever, Decider } from '../shared/decider';
import { UserCommand } from './user.commands';
import { UserEvent } from './user.events';

export interface UserState {
  exists: boolean;
  properties: Record<string, unknown>;
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

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ exists: false, properties: {} }),

  evolve(state, event) {
    switch (event.type) {
      case 'UserIdentified':
        return { exists: true, properties: mergeProperties(state.exists ? state.properties : {}, event.data.properties) };
      case 'UserDeleted':
        return { exists: false, properties: {} };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'IdentifyUser': {
        // Only what changes is recorded; identifying with the same properties again is a no-op.
        const changed: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(command.properties)) {
          if (value === undefined) continue;
          const current = state.properties[key];
          if (value === null ? key in state.properties : !sameJson(current, value)) changed[key] = value;
        }
        if (state.exists && Object.keys(changed).length === 0) return [];
        return [{ type: 'UserIdentified', data: { user_id: command.userId, properties: changed, identified_at: command.now } }];
      }
      case 'DeleteUser':
        if (!state.exists) return [];
        return [{ type: 'UserDeleted', data: { user_id: command.userId, deleted_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
