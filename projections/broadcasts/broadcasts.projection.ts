import {
  BroadcastCanceled,
  BroadcastPageSent,
  BroadcastScheduled,
  BroadcastSendStarted,
  BroadcastSent,
  BroadcastUpserted,
} from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/**
 * Broadcasts with their status and progress (ADR 0172); the sender claims its work from here.
 * `scheduled_at` is the time the current (or last) send was scheduled for, kept once it starts and
 * ends (ADR 0275); `send_at` is the sender's due time, a send's start when it was not scheduled.
 */
export const broadcastsProjection = defineProjection({
  name: 'broadcasts',
  version: 2,
  tables: ['rm_broadcasts'],
  events: [BroadcastUpserted, BroadcastScheduled, BroadcastSendStarted, BroadcastPageSent, BroadcastSent, BroadcastCanceled],

  async applyBatch(events, tx) {
    for (const event of events) {
      const env = event.environment;
      const at = event.createdAt;
      switch (event.type) {
        case 'BroadcastUpserted': {
          const d = event.data;
          await tx.query(
            `INSERT INTO rm_broadcasts (environment, key, content, sha, valid, errors, status, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'draft', $7, $7)
             ON CONFLICT (environment, key) DO UPDATE SET content = EXCLUDED.content, sha = EXCLUDED.sha, valid = EXCLUDED.valid,
               errors = EXCLUDED.errors, updated_at = EXCLUDED.updated_at`,
            [env, d.key, JSON.stringify(d.content), d.sha, d.valid, JSON.stringify(d.errors), d.upserted_at],
          );
          break;
        }
        case 'BroadcastScheduled':
          await tx.query(
            `UPDATE rm_broadcasts SET status = 'scheduled', send_id = $3, send_at = $4, scheduled_at = $4, updated_at = $5
             WHERE environment = $1 AND key = $2`,
            [env, event.data.key, event.data.send_id, event.data.send_at, at],
          );
          break;
        case 'BroadcastSendStarted':
          await tx.query(
            // The scheduled send starting keeps its scheduled time; a send asked for now has none.
            `UPDATE rm_broadcasts SET status = 'sending', send_id = $3, send_at = COALESCE(send_at, $4), started_at = $4, recipients = 0,
               scheduled_at = CASE WHEN status = 'scheduled' AND send_id = $3 THEN scheduled_at END,
               updated_at = $4 WHERE environment = $1 AND key = $2`,
            [env, event.data.key, event.data.send_id, event.data.started_at],
          );
          break;
        case 'BroadcastPageSent':
          await tx.query(
            'UPDATE rm_broadcasts SET recipients = recipients + $3, updated_at = $4 WHERE environment = $1 AND key = $2 AND send_id = $5',
            [env, event.data.key, event.data.recipients, event.data.sent_at, event.data.send_id],
          );
          break;
        case 'BroadcastSent':
          await tx.query(
            `UPDATE rm_broadcasts SET status = 'sent', completed_at = $3, recipients = $4, updated_at = $3 WHERE environment = $1 AND key = $2`,
            [env, event.data.key, event.data.completed_at, event.data.recipients],
          );
          break;
        case 'BroadcastCanceled':
          await tx.query(
            `UPDATE rm_broadcasts SET status = $3, send_at = CASE WHEN $3 = 'draft' THEN NULL ELSE send_at END,
               scheduled_at = CASE WHEN $3 = 'draft' THEN NULL ELSE scheduled_at END, updated_at = $4
             WHERE environment = $1 AND key = $2`,
            [env, event.data.key, event.data.was === 'scheduled' ? 'draft' : 'canceled', event.data.canceled_at],
          );
          break;
      }
    }
  },
});
