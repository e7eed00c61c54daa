import { ChannelArchived, ChannelConfigured, EventOf } from '@notify/contracts';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled = EventOf<typeof ChannelConfigured> | EventOf<typeof ChannelArchived>;

export const channelsProjection: Projection = {
  name: 'channels',
  version: 1,
  filter: { eventTypes: ['ChannelConfigured', 'ChannelArchived'] },
  tables: ['rm_channels'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      switch (event.type) {
        case 'ChannelConfigured': {
          const d = event.data;
          await tx.query(
            `INSERT INTO rm_channels (id, key, name, type, provider, description, environment_settings, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
             ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, provider = EXCLUDED.provider, description = EXCLUDED.description,
               environment_settings = EXCLUDED.environment_settings, updated_at = EXCLUDED.updated_at, archived_at = NULL`,
            [d.channel_id, d.key, d.name, d.type, d.provider, d.description, JSON.stringify(d.environment_settings), d.configured_at],
          );
          break;
        }
        case 'ChannelArchived':
          await tx.query('UPDATE rm_channels SET archived_at = $2, updated_at = $2 WHERE id = $1', [event.data.channel_id, event.data.archived_at]);
          break;
      }
    }
  },
};
