import { ObjectDeleted, PreferenceSetDeleted, PreferenceSetUpdated, UserDeleted, UserMerged } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';
import { recipientColumns } from '../recipient-columns';

const UPSERT = `INSERT INTO rm_preference_sets (environment, recipient_type, recipient_collection, recipient_id, set_id, preferences, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (environment, recipient_type, recipient_collection, recipient_id, set_id) DO UPDATE SET preferences = EXCLUDED.preferences, updated_at = EXCLUDED.updated_at`;

/** Preference sets of users and objects; gone with their recipient. */
export const preferencesProjection = defineProjection({
  name: 'preferences',
  version: 1,
  tables: ['rm_preference_sets'],
  events: [PreferenceSetUpdated, PreferenceSetDeleted, UserMerged, UserDeleted, ObjectDeleted],
  on: {
    async PreferenceSetUpdated({ environment, data }, tx) {
      await tx.query(UPSERT, [
        environment,
        ...recipientColumns(data.recipient),
        data.preference_set_id,
        JSON.stringify(data.preferences),
        data.updated_at,
      ]);
    },
    async PreferenceSetDeleted({ environment, data }, tx) {
      await tx.query(
        'DELETE FROM rm_preference_sets WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4 AND set_id = $5',
        [environment, ...recipientColumns(data.recipient), data.preference_set_id],
      );
    },
    async UserMerged({ environment, data }, tx) {
      for (const set of data.preference_sets) {
        await tx.query(UPSERT, [
          environment,
          'user',
          '',
          data.user_id,
          set.preference_set_id,
          JSON.stringify(set.preferences),
          data.merged_at,
        ]);
      }
    },
    async UserDeleted({ environment, data }, tx) {
      await tx.query(
        `DELETE FROM rm_preference_sets WHERE environment = $1 AND recipient_type = 'user' AND recipient_collection = '' AND recipient_id = $2`,
        [environment, data.user_id],
      );
    },
    async ObjectDeleted({ environment, data }, tx) {
      await tx.query(
        `DELETE FROM rm_preference_sets WHERE environment = $1 AND recipient_type = 'object' AND recipient_collection = $2 AND recipient_id = $3`,
        [environment, data.collection, data.object_id],
      );
    },
  },
});
