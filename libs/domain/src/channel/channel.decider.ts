import { assertNever, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { ChannelCommand } from './channel.commands';
import { ChannelEvent } from './channel.events';
import { sameJson } from '../shared/same-json';

export interface ChannelState {
  exists: boolean;
  archived: boolean;
  id?: string;
  type?: string;
  current?: Omit<Extract<ChannelEvent, { type: 'ChannelConfigured' }>['data'], 'configured_at'>;
}

export const channelDecider: Decider<ChannelState, ChannelCommand, ChannelEvent> = {
  initialState: () => ({ exists: false, archived: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'ChannelConfigured': {
        const { configured_at: _at, ...current } = event.data;
        return { exists: true, archived: false, id: event.data.channel_id, type: event.data.type, current };
      }
      case 'ChannelArchived':
        return { ...state, archived: true };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ConfigureChannel': {
        if (state.exists && !state.archived && state.type !== command.channelType) {
          throw new DomainError(
            'channel_type_immutable',
            `Channel ${command.key} is of type ${state.type}; its type cannot change`,
            'invalid_params',
            [{ field: 'type', message: 'cannot change once the channel exists', type: 'immutable' }],
          );
        }
        const data = {
          channel_id: state.id ?? command.newChannelId,
          key: command.key,
          name: command.name,
          type: command.channelType,
          provider: command.provider,
          description: command.description,
          environment_settings: command.environmentSettings,
        };
        if (state.exists && !state.archived && sameJson(state.current, data)) return [];
        return [{ type: 'ChannelConfigured', data: { ...data, configured_at: command.now } }];
      }
      case 'ArchiveChannel':
        if (!state.exists || state.archived) return [];
        return [{ type: 'ChannelArchived', data: { channel_id: state.id!, key: command.key, archived_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
