import { EventOf, ObjectDeleted, PreferenceSetDeleted, PreferenceSetUpdated, UserDeleted, UserMerged } from '@notify/contracts';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';
import { recipientColumns } from '../recipient-columns';

type Handled = EventOf<typeof PreferenceSetUpdated> | EventOf<typeof PreferenceSetDeleted> | EventOf<typeof UserMerged> | EventOf<typeof UserDeleted> | EventOf<typeof ObjectDeleted>;

const UPSERT = `INSERT INTO rm_preference_sets (environment, recipient_type, recipient_collection, recipient_id, set_id, preferences, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (environment, recipient_type, recipient_collection, recipient_id, set_id) DO UPDATE SET preferences = EXCLUDED.preferences, updated_at = EXCLUDED.updated_at`;

/** Preference sets of users and objects; gone with their recipient. */
export const preferencesProjection: Projection = {
  name: 'preferences',
  version: 1,
  filter: { eventTypes: ['PreferenceSetUpdated', 'PreferenceSetDeleted', 'UserMerged', 'UserDeleted', 'ObjectDeleted'] },
  tables: ['rm_preference_sets'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      const env = recorded.metadata.environment;
      switch (event.type) {
        case 'PreferenceSetUpdated':
          await tx.query(UPSERT, [env, ...recipientColumns(event.data.recipient), event.data.preference_set_id, JSON.stringify(event.data.preferences), event.data.updated_at]);
          break;
        case 'PreferenceSetDeleted':
          await tx.query(
            'DELETE FROM rm_preference_sets WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4 AND set_id = $5',
            [env, ...recipientColumns(event.data.recipient), event.data.preference_set_id],
          );
          break;
        case 'UserMerged':
          for (const set of event.data.preference_sets) {
            await tx.query(UPSERT, [env, 'user', '', event.data.user_id, set.preference_set_id, JSON.stringify(set.preferences), event.data.merged_at]);
          }
          break;
        case 'UserDeleted':
          await tx.query(`DELETE FROM rm_preference_sets WHERE environment = $1 AND recipient_type = 'user' AND recipient_collection = '' AND recipient_id = $2`, [env, event.data.user_id]);
          break;
        case 'ObjectDeleted':
          await tx.query(`DELETE FROM rm_preference_sets WHERE environment = $1 AND recipient_type = 'object' AND recipient_collection = $2 AND recipient_id = $3`, [
            env,
            event.data.collection,
            event.data.object_id,
          ]);
          break;
      }
    }
  },
};
