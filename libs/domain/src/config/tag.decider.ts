import type { EventOf, TagDeleted, TagUpserted } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';

export type TagEvent = EventOf<typeof TagUpserted> | EventOf<typeof TagDeleted>;
export interface TagFields {
  name: string;
  description: string | null;
  color: string | null;
}
export type TagCommand = { type: 'UpsertTag'; tag: TagFields; now: string } | { type: 'DeleteTag'; name: string; now: string };
export interface TagState {
  current?: TagFields;
}

/** A tag of the account's catalog: upserting what is already there, or deleting what is not, records nothing. */
export const tagDecider: Decider<TagState, TagCommand, TagEvent> = {
  initialState: () => ({}),
  evolve(_state, event) {
    switch (event.type) {
      case 'TagUpserted': {
        const { upserted_at: _at, ...current } = event.data;
        return { current };
      }
      case 'TagDeleted':
        return {};
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'UpsertTag': {
        const c = state.current;
        if (c && c.description === command.tag.description && c.color === command.tag.color) return [];
        return [{ type: 'TagUpserted', data: { ...command.tag, upserted_at: command.now } }];
      }
      case 'DeleteTag':
        if (!state.current) return [];
        return [{ type: 'TagDeleted', data: { name: command.name, deleted_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
