import { ObjectDeleted, SubscriptionAdded, SubscriptionRemoved, UserDeleted, UserMerged } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';
import { recipientColumns } from '../recipient-columns';

/**
 * Who subscribes to which object. A subscription ends with either side: deleting a user or an
 * object removes its rows; merging a user moves the source's subscriptions to the target.
 */
export const subscriptionsProjection = defineProjection({
  name: 'subscriptions',
  version: 1,
  tables: ['rm_subscriptions'],
  events: [SubscriptionAdded, SubscriptionRemoved, UserMerged, UserDeleted, ObjectDeleted],
  on: {
    async SubscriptionAdded({ environment, data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_subscriptions (environment, object_collection, object_id, recipient_type, recipient_collection, recipient_id, properties, inserted_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (environment, object_collection, object_id, recipient_type, recipient_collection, recipient_id)
         DO UPDATE SET properties = EXCLUDED.properties, updated_at = EXCLUDED.updated_at`,
        [
          environment,
          d.collection,
          d.object_id,
          ...recipientColumns(d.recipient),
          d.properties === null ? null : JSON.stringify(d.properties),
          d.added_at,
        ],
      );
    },
    async SubscriptionRemoved({ environment, data }, tx) {
      await tx.query(
        `DELETE FROM rm_subscriptions WHERE environment = $1 AND object_collection = $2 AND object_id = $3
           AND recipient_type = $4 AND recipient_collection = $5 AND recipient_id = $6`,
        [environment, data.collection, data.object_id, ...recipientColumns(data.recipient)],
      );
    },
    async UserMerged({ environment, data }, tx) {
      // The target keeps its own subscription where both had one; the source's rows left
      // behind go with the UserDeleted that follows.
      await tx.query(
        `UPDATE rm_subscriptions s SET recipient_id = $3, updated_at = $4
         WHERE s.environment = $1 AND s.recipient_type = 'user' AND s.recipient_collection = '' AND s.recipient_id = $2
           AND NOT EXISTS (SELECT 1 FROM rm_subscriptions t WHERE t.environment = s.environment AND t.object_collection = s.object_collection
             AND t.object_id = s.object_id AND t.recipient_type = 'user' AND t.recipient_collection = '' AND t.recipient_id = $3)`,
        [environment, data.from_user_id, data.user_id, data.merged_at],
      );
    },
    async UserDeleted({ environment, data }, tx) {
      await tx.query(
        `DELETE FROM rm_subscriptions WHERE environment = $1 AND recipient_type = 'user' AND recipient_collection = '' AND recipient_id = $2`,
        [environment, data.user_id],
      );
    },
    async ObjectDeleted({ environment, data }, tx) {
      await tx.query(
        `DELETE FROM rm_subscriptions WHERE environment = $1 AND ((object_collection = $2 AND object_id = $3)
           OR (recipient_type = 'object' AND recipient_collection = $2 AND recipient_id = $3))`,
        [environment, data.collection, data.object_id],
      );
    },
  },
});
