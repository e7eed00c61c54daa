import { ChannelDataSet, ChannelDataUnset, EventOf, ObjectDeleted, UserDeleted, UserMerged } from '@notify/contracts';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';
import { recipientColumns } from '../recipient-columns';

type Handled = EventOf<typeof ChannelDataSet> | EventOf<typeof ChannelDataUnset> | EventOf<typeof UserMerged> | EventOf<typeof UserDeleted> | EventOf<typeof ObjectDeleted>;

const UPSERT = `INSERT INTO rm_channel_data (environment, recipient_type, recipient_collection, recipient_id, channel_id, channel_type, provider, data, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ON CONFLICT (environment, recipient_type, recipient_collection, recipient_id, channel_id)
  DO UPDATE SET channel_type = EXCLUDED.channel_type, provider = EXCLUDED.provider, data = EXCLUDED.data, updated_at = EXCLUDED.updated_at`;

/** Channel data of users and objects; gone with their recipient. */
export const channelDataProjection: Projection = {
  name: 'channel-data',
  version: 1,
  filter: { eventTypes: ['ChannelDataSet', 'ChannelDataUnset', 'UserMerged', 'UserDeleted', 'ObjectDeleted'] },
  tables: ['rm_channel_data'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      const env = recorded.metadata.environment;
      switch (event.type) {
        case 'ChannelDataSet': {
          const d = event.data;
          await tx.query(UPSERT, [env, ...recipientColumns(d.recipient), d.channel_id, d.channel_type, d.provider, JSON.stringify(d.data), d.set_at]);
          break;
        }
        case 'ChannelDataUnset':
          await tx.query(
            'DELETE FROM rm_channel_data WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4 AND channel_id = $5',
            [env, ...recipientColumns(event.data.recipient), event.data.channel_id],
          );
          break;
        case 'UserMerged':
          for (const c of event.data.channel_data) {
            await tx.query(UPSERT, [env, 'user', '', event.data.user_id, c.channel_id, c.channel_type, c.provider, JSON.stringify(c.data), event.data.merged_at]);
          }
          break;
        case 'UserDeleted':
          await tx.query(`DELETE FROM rm_channel_data WHERE environment = $1 AND recipient_type = 'user' AND recipient_collection = '' AND recipient_id = $2`, [env, event.data.user_id]);
          break;
        case 'ObjectDeleted':
          await tx.query(`DELETE FROM rm_channel_data WHERE environment = $1 AND recipient_type = 'object' AND recipient_collection = $2 AND recipient_id = $3`, [
            env,
            event.data.collection,
            event.data.object_id,
          ]);
          break;
      }
    }
  },
};
