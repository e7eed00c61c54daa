import { ChannelGroupT } from '@notify/contracts';
import { ChannelGroupRecord } from '@notify/projections/channel-groups';
import { ChannelAdminRow } from '@notify/projections/channels';
import { presentChannel } from './present-channel';

export function presentChannelGroup(group: ChannelGroupRecord, channels: ChannelAdminRow[]): ChannelGroupT {
  const byKey = new Map(channels.map((c) => [c.key, c]));
  const at = (d: Date) => new Date(d).toISOString();
  return {
    key: group.key,
    name: group.name,
    channel_type: group.channel_type,
    operator: group.operator,
    source: 'user',
    visible_in: group.visible_in,
    channel_rules: group.channel_rules
      .filter((r) => byKey.has(r.channel_key))
      .map(({ channel_key, ...rule }) => ({
        ...rule,
        channel: presentChannel(byKey.get(channel_key)!, false),
        created_at: at(group.created_at),
        updated_at: at(group.updated_at),
      })),
    created_at: at(group.created_at),
    updated_at: at(group.updated_at),
    archived_at: group.archived_at ? at(group.archived_at) : null,
  };
}
