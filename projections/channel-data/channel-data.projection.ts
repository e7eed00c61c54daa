import { ChannelDataSet, ChannelDataUnset, ObjectDeleted, UserDeleted, UserMerged } from '@notify/contracts';
import { erasedOr } from '../erased';
import { defineProjection } from '@notify/projection-runtime';
import { recipientColumns } from '../recipient-columns';

const UPSERT = `INSERT INTO rm_channel_data (environment, recipient_type, recipient_collection, recipient_id, channel_id, channel_type, provider, data, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ON CONFLICT (environment, recipient_type, recipient_collection, recipient_id, channel_id)
  DO UPDATE SET channel_type = EXCLUDED.channel_type, provider = EXCLUDED.provider, data = EXCLUDED.data, updated_at = EXCLUDED.updated_at`;

/** Channel data of users and objects; gone with their recipient. */
export const channelDataProjection = defineProjection({
  name: 'channel-data',
  version: 1,
  tables: ['rm_channel_data'],
  events: [ChannelDataSet, ChannelDataUnset, UserMerged, UserDeleted, ObjectDeleted],
  on: {
    async ChannelDataSet({ environment, data: d }, tx) {
      await tx.query(UPSERT, [
        environment,
        ...recipientColumns(d.recipient),
        d.channel_id,
        d.channel_type,
        d.provider,
        JSON.stringify(d.data),
        d.set_at,
      ]);
    },
    async ChannelDataUnset({ environment, data }, tx) {
      await tx.query(
        'DELETE FROM rm_channel_data WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4 AND channel_id = $5',
        [environment, ...recipientColumns(data.recipient), data.channel_id],
      );
    },
    async UserMerged({ environment, data }, tx) {
      for (const c of erasedOr(data.channel_data, [])) {
        await tx.query(UPSERT, [
          environment,
          'user',
          '',
          data.user_id,
          c.channel_id,
          c.channel_type,
          c.provider,
          JSON.stringify(c.data),
          data.merged_at,
        ]);
      }
    },
    async UserDeleted({ environment, data }, tx) {
      await tx.query(
        `DELETE FROM rm_channel_data WHERE environment = $1 AND recipient_type = 'user' AND recipient_collection = '' AND recipient_id = $2`,
        [environment, data.user_id],
      );
    },
    async ObjectDeleted({ environment, data }, tx) {
      await tx.query(
        `DELETE FROM rm_channel_data WHERE environment = $1 AND recipient_type = 'object' AND recipient_collection = $2 AND recipient_id = $3`,
        [environment, data.collection, data.object_id],
      );
    },
  },
});
