import { MESSAGE_EVENT_TYPES, messageEventContracts } from '@notify/contracts';
import { MessageEvent } from '@notify/domain';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';
import { v5 as uuidv5 } from 'uuid';

const LOG_NAMESPACE = '0e5f3c9a-5b7e-4f0e-9a64-1c2d3e4f5a6b';
const STATUS: Partial<Record<MessageEvent['type'], string>> = {
  MessageSent: 'sent',
  MessageDelivered: 'delivered',
  MessageDeliveryAttempted: 'delivery_attempted',
  MessageUndelivered: 'undelivered',
  MessageNotSent: 'not_sent',
  MessageBounced: 'bounced',
};
const ENGAGEMENT: Partial<Record<MessageEvent['type'], [column: string, set: boolean]>> = {
  MessageSeen: ['seen_at', true],
  MessageUnseen: ['seen_at', false],
  MessageRead: ['read_at', true],
  MessageUnread: ['read_at', false],
  MessageArchived: ['archived_at', true],
  MessageUnarchived: ['archived_at', false],
  MessageInteracted: ['interacted_at', true],
  MessageLinkClicked: ['link_clicked_at', true],
};

function recipientColumns(ref: string | { collection: string; id: string }) {
  return typeof ref === 'string' ? { type: 'user', id: ref, collection: null } : { type: 'object', id: ref.id, collection: ref.collection };
}

/** Messages with their delivery status and engagement, their event history, delivery logs and activities. */
export const messagesProjection: Projection = {
  name: 'messages',
  version: 1,
  filter: { eventTypes: messageEventContracts.map((c) => c.type) },
  tables: ['rm_messages', 'rm_message_activities', 'rm_message_events', 'rm_message_delivery_logs'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as MessageEvent;
      const env = recorded.metadata.environment;
      const at = recorded.createdAt.toISOString();
      const publicType = MESSAGE_EVENT_TYPES[event.type];
      if (event.type === 'MessageCreated') {
        const m = event.data;
        const r = recipientColumns(m.recipient);
        await tx.query(
          `INSERT INTO rm_messages (environment, id, channel_id, channel_key, channel_type, provider, recipient_type, recipient_id, recipient_collection,
             workflow_key, workflow_categories, workflow_version, workflow_run_id, run_id, step_ref, tenant, status, data, content, actors,
             total_activities, total_actors, recipient_snapshot, metadata, sandbox, inserted_at, updated_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,'queued',$17,$18,$19,$20,$21,$22,$23,$24,$25,$25)
           ON CONFLICT (environment, id) DO NOTHING`,
          [
            env, m.message_id, m.channel.id, m.channel.key, m.channel.type, m.channel.provider, r.type, r.id, r.collection,
            m.workflow.key, m.workflow.categories, m.workflow.version, m.workflow_run_id, m.workflow_recipient_run_id, m.step_ref, m.tenant,
            JSON.stringify(m.data), JSON.stringify(m.content), JSON.stringify(m.actors), m.total_activities, m.total_actors,
            JSON.stringify(m.recipient_snapshot), JSON.stringify(m.metadata), m.sandbox, m.created_at,
          ],
        );
        for (const a of m.activities) {
          await tx.query(
            `INSERT INTO rm_message_activities (environment, message_id, id, actor, data, inserted_at) VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT DO NOTHING`,
            [env, m.message_id, a.id, JSON.stringify(a.actor), JSON.stringify(a.data), a.inserted_at],
          );
        }
      } else if (event.type === 'MessageDeliveryAttemptCompleted') {
        const d = event.data;
        await tx.query('UPDATE rm_messages SET attempts = GREATEST(attempts, $3), updated_at = $4 WHERE environment = $1 AND id = $2', [env, d.message_id, d.attempt, d.completed_at]);
        for (const [i, log] of d.logs.entries()) {
          await tx.query(
            `INSERT INTO rm_message_delivery_logs (environment, id, message_id, attempt, service_name, request, response, inserted_at)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT DO NOTHING`,
            [env, uuidv5(`${recorded.id}:${i}`, LOG_NAMESPACE), d.message_id, d.attempt, d.provider, JSON.stringify(log.request), JSON.stringify(log.response ?? (log.error ? { error: log.error } : null)), d.completed_at],
          );
        }
      } else {
        const status = STATUS[event.type];
        const engagement = ENGAGEMENT[event.type];
        const messageId = (event.data as { message_id: string }).message_id;
        if (status) {
          await tx.query('UPDATE rm_messages SET status = $3, updated_at = $4 WHERE environment = $1 AND id = $2', [env, messageId, status, at]);
        } else if (engagement) {
          const [column, set] = engagement;
          const when = (event.data as { at: string }).at;
          await tx.query(`UPDATE rm_messages SET ${column} = $3, updated_at = $4 WHERE environment = $1 AND id = $2`, [env, messageId, set ? when : null, at]);
        }
      }
      if (publicType) {
        const { message_id: messageId, ...data } = event.data as { message_id: string } & Record<string, unknown>;
        await tx.query(
          `INSERT INTO rm_message_events (environment, id, message_id, type, data, inserted_at) VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT DO NOTHING`,
          [env, recorded.id, messageId, publicType, JSON.stringify(event.type === 'MessageCreated' ? null : data), at],
        );
      }
    }
  },
};
