import type {
  ChannelDataSet,
  ChannelDataUnset,
  EventOf,
  PreferenceSetDeleted,
  PreferenceSetUpdated,
  RecipientRefT,
} from '@notify/contracts';
import {
  applyPreferenceSetRequest,
  PersistenceStrategy,
  PreferenceSetData,
  PreferenceSetRequest,
  samePreferenceSet,
} from '../preferences/preference-set';
import { sameJson } from '../shared/same-json';

export type RecipientRef = RecipientRefT;

export interface StoredChannelData {
  channel_type: string;
  provider: string;
  data: Record<string, unknown>;
}

/** What a user or object carries besides its properties. */
export interface RecipientAspects {
  preferences: Record<string, PreferenceSetData>;
  channelData: Record<string, StoredChannelData>;
}

export type AspectEvent =
  | EventOf<typeof PreferenceSetUpdated>
  | EventOf<typeof PreferenceSetDeleted>
  | EventOf<typeof ChannelDataSet>
  | EventOf<typeof ChannelDataUnset>;

/** A channel as looked up by the caller (it must exist in the environment). */
export interface ChannelInfo {
  id: string;
  type: string;
  provider: string;
}

export type AspectCommand =
  | { type: 'SetPreferenceSet'; preferenceSetId: string; request: PreferenceSetRequest; strategy: PersistenceStrategy; now: string }
  | { type: 'DeletePreferenceSet'; preferenceSetId: string; now: string }
  | { type: 'SetChannelData'; channel: ChannelInfo; data: Record<string, unknown>; now: string }
  | { type: 'UnsetChannelData'; channelId: string; now: string }
  /** Push tokens a provider reported gone: dropped from `tokens` and `devices`, the rest kept. */
  | { type: 'RemoveChannelDataTokens'; channelId: string; tokens: string[]; now: string };

export const emptyAspects = (): RecipientAspects => ({ preferences: {}, channelData: {} });

export function evolveAspects(aspects: RecipientAspects, event: AspectEvent): RecipientAspects {
  switch (event.type) {
    case 'PreferenceSetUpdated':
      return { ...aspects, preferences: { ...aspects.preferences, [event.data.preference_set_id]: event.data.preferences } };
    case 'PreferenceSetDeleted': {
      const { [event.data.preference_set_id]: _gone, ...rest } = aspects.preferences;
      return { ...aspects, preferences: rest };
    }
    case 'ChannelDataSet':
      return {
        ...aspects,
        channelData: {
          ...aspects.channelData,
          [event.data.channel_id]: { channel_type: event.data.channel_type, provider: event.data.provider, data: event.data.data },
        },
      };
    case 'ChannelDataUnset': {
      const { [event.data.channel_id]: _gone, ...rest } = aspects.channelData;
      return { ...aspects, channelData: rest };
    }
  }
}

export const isAspectEvent = (event: { type: string }): event is AspectEvent =>
  event.type === 'PreferenceSetUpdated' ||
  event.type === 'PreferenceSetDeleted' ||
  event.type === 'ChannelDataSet' ||
  event.type === 'ChannelDataUnset';

/** The events one aspect command records; none when it changes nothing. Aspects are evolved as it goes. */
export function decideAspect(recipient: RecipientRef, aspects: RecipientAspects, command: AspectCommand): AspectEvent[] {
  switch (command.type) {
    case 'SetPreferenceSet': {
      const current = aspects.preferences[command.preferenceSetId];
      const next = applyPreferenceSetRequest(current, command.request, command.strategy);
      if (current && samePreferenceSet(current, next)) return [];
      return [
        {
          type: 'PreferenceSetUpdated',
          data: { recipient, preference_set_id: command.preferenceSetId, preferences: next, updated_at: command.now },
        },
      ];
    }
    case 'DeletePreferenceSet':
      if (!aspects.preferences[command.preferenceSetId]) return [];
      return [{ type: 'PreferenceSetDeleted', data: { recipient, preference_set_id: command.preferenceSetId, deleted_at: command.now } }];
    case 'SetChannelData': {
      const current = aspects.channelData[command.channel.id];
      if (current && sameJson(current.data, command.data) && current.provider === command.channel.provider) return [];
      return [
        {
          type: 'ChannelDataSet',
          data: {
            recipient,
            channel_id: command.channel.id,
            channel_type: command.channel.type,
            provider: command.channel.provider,
            data: command.data,
            set_at: command.now,
          },
        },
      ];
    }
    case 'UnsetChannelData':
      if (!aspects.channelData[command.channelId]) return [];
      return [{ type: 'ChannelDataUnset', data: { recipient, channel_id: command.channelId, unset_at: command.now } }];
    case 'RemoveChannelDataTokens': {
      const current = aspects.channelData[command.channelId];
      if (!current) return [];
      const data = withoutTokens(current.data, new Set(command.tokens));
      if (sameJson(data, current.data)) return [];
      return [
        {
          type: 'ChannelDataSet',
          data: {
            recipient,
            channel_id: command.channelId,
            channel_type: current.channel_type,
            provider: current.provider,
            data,
            set_at: command.now,
          },
        },
      ];
    }
  }
}

/** Push channel data without the given tokens, in `tokens` and in `devices`; other fields as they were. */
function withoutTokens(data: Record<string, unknown>, gone: ReadonlySet<string>): Record<string, unknown> {
  const out = { ...data };
  if (Array.isArray(data.tokens)) out.tokens = data.tokens.filter((t) => !(typeof t === 'string' && gone.has(t)));
  if (Array.isArray(data.devices)) {
    out.devices = data.devices.filter(
      (d) =>
        !(
          typeof d === 'object' &&
          d !== null &&
          typeof (d as { token?: unknown }).token === 'string' &&
          gone.has((d as { token: string }).token)
        ),
    );
  }
  return out;
}

/** Runs several aspect commands in order, each seeing the previous one's effect. */
export function decideAspects(recipient: RecipientRef, aspects: RecipientAspects, commands: readonly AspectCommand[]): AspectEvent[] {
  const events: AspectEvent[] = [];
  let state = aspects;
  for (const command of commands) {
    for (const event of decideAspect(recipient, state, command)) {
      events.push(event);
      state = evolveAspects(state, event);
    }
  }
  return events;
}
