import { ChannelArchived, ChannelConfigured } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

export const channelsProjection = defineProjection({
  name: 'channels',
  version: 1,
  tables: ['rm_channels'],
  events: [ChannelConfigured, ChannelArchived],
  on: {
    async ChannelConfigured({ data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_channels (id, key, name, type, provider, description, environment_settings, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, provider = EXCLUDED.provider, description = EXCLUDED.description,
           environment_settings = EXCLUDED.environment_settings, updated_at = EXCLUDED.updated_at, archived_at = NULL`,
        [d.channel_id, d.key, d.name, d.type, d.provider, d.description, JSON.stringify(d.environment_settings), d.configured_at],
      );
    },
    async ChannelArchived({ data }, tx) {
      await tx.query('UPDATE rm_channels SET archived_at = $2, updated_at = $2 WHERE id = $1', [data.channel_id, data.archived_at]);
    },
  },
});
