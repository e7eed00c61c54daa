import type { ChannelGroupArchived, ChannelGroupUpserted, EventOf, VariableUpserted } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { sameJson } from '../shared/same-json';

export type VariableEvent = EventOf<typeof VariableUpserted>;
type VariableData = VariableEvent['data'];
export type VariableCommand = { type: 'UpsertVariable'; variable: Omit<VariableData, 'upserted_at'>; now: string };
export interface VariableState {
  current?: Omit<VariableData, 'upserted_at'>;
}

export const variableDecider: Decider<VariableState, VariableCommand, VariableEvent> = {
  initialState: () => ({}),
  evolve(_state, event) {
    const { upserted_at: _at, ...current } = event.data;
    return { current };
  },
  decide(command, state) {
    if (command.type !== 'UpsertVariable') return assertNever(command.type);
    if (state.current && sameJson(state.current, command.variable)) return [];
    return [{ type: 'VariableUpserted', data: { ...command.variable, upserted_at: command.now } }];
  },
};

export type ChannelGroupEvent = EventOf<typeof ChannelGroupUpserted> | EventOf<typeof ChannelGroupArchived>;
type GroupData = EventOf<typeof ChannelGroupUpserted>['data'];
export type ChannelGroupCommand =
  | { type: 'UpsertChannelGroup'; group: Omit<GroupData, 'upserted_at'>; now: string }
  | { type: 'ArchiveChannelGroup'; key: string; now: string };
export interface ChannelGroupState {
  current?: Omit<GroupData, 'upserted_at'>;
  archived: boolean;
}

export const channelGroupDecider: Decider<ChannelGroupState, ChannelGroupCommand, ChannelGroupEvent> = {
  initialState: () => ({ archived: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'ChannelGroupUpserted': {
        const { upserted_at: _at, ...current } = event.data;
        return { current, archived: false };
      }
      case 'ChannelGroupArchived':
        return { ...state, archived: true };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'UpsertChannelGroup':
        if (state.current && !state.archived && sameJson(state.current, command.group)) return [];
        return [{ type: 'ChannelGroupUpserted', data: { ...command.group, upserted_at: command.now } }];
      case 'ArchiveChannelGroup':
        if (!state.current || state.archived) return [];
        return [{ type: 'ChannelGroupArchived', data: { key: command.key, archived_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
