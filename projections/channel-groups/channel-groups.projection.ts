import { ChannelGroupArchived, ChannelGroupUpserted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

export const channelGroupsProjection = defineProjection({
  name: 'channel-groups',
  version: 1,
  tables: ['rm_channel_groups'],
  events: [ChannelGroupUpserted, ChannelGroupArchived],
  on: {
    async ChannelGroupUpserted({ data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_channel_groups (key, name, channel_type, operator, visible_in, channel_rules, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name, channel_type = EXCLUDED.channel_type, operator = EXCLUDED.operator, visible_in = EXCLUDED.visible_in,
           channel_rules = EXCLUDED.channel_rules, updated_at = EXCLUDED.updated_at, archived_at = NULL`,
        [d.key, d.name, d.channel_type, d.operator, JSON.stringify(d.visible_in), JSON.stringify(d.channel_rules), d.upserted_at],
      );
    },
    async ChannelGroupArchived({ data }, tx) {
      await tx.query('UPDATE rm_channel_groups SET archived_at = $2, updated_at = $2 WHERE key = $1', [data.key, data.archived_at]);
    },
  },
});
