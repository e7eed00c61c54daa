import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

interface WaitingForEvent {
  event_type: string;
  event_key: string;
  source_key: string;
  recipient: { type: 'user'; id: string } | { type: 'object'; collection: string; id: string };
}

const isEventWait = (w: unknown): w is WaitingForEvent =>
  !!w && typeof w === 'object' && typeof (w as WaitingForEvent).event_type === 'string' && typeof (w as WaitingForEvent).recipient === 'object';

/**
 * Runs paused on a wait_for_event step, by recipient and the event they wait for: what the
 * wait-for-event reactor looks up when something happens. A run leaves it when it resumes,
 * completes, is cancelled, or its expiry timer fires.
 */
export const waitingRunsProjection: Projection = {
  name: 'waiting-runs',
  version: 1,
  filter: { eventTypes: ['RunPaused', 'RunResumed', 'RunCompleted', 'RunCancelled', 'TimerFired'], streamPrefixes: ['run-'] },
  tables: ['rm_waiting_runs'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const event of events) {
      const env = event.metadata.environment;
      const data = event.data as { run_id?: string; timer_id?: string | null; reason?: string; step_ref?: string; waiting_for?: unknown; at?: string };
      switch (event.type) {
        case 'RunPaused': {
          if (data.reason !== 'wait_for_event' || !isEventWait(data.waiting_for)) break;
          const w = data.waiting_for;
          await tx.query(
            `INSERT INTO rm_waiting_runs (environment, run_id, step_ref, recipient_type, recipient_collection, recipient_id, event_type, event_key, source_key, waiting_for, timer_id, waiting_since)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)
             ON CONFLICT (environment, run_id) DO UPDATE SET step_ref = EXCLUDED.step_ref, event_type = EXCLUDED.event_type, event_key = EXCLUDED.event_key,
               source_key = EXCLUDED.source_key, waiting_for = EXCLUDED.waiting_for, timer_id = EXCLUDED.timer_id, waiting_since = EXCLUDED.waiting_since`,
            [
              env, data.run_id, data.step_ref, w.recipient.type, w.recipient.type === 'object' ? w.recipient.collection : '', w.recipient.id,
              w.event_type, w.event_key, w.source_key, JSON.stringify(w), data.timer_id ?? null, data.at ?? event.createdAt.toISOString(),
            ],
          );
          break;
        }
        case 'TimerFired':
          await tx.query('DELETE FROM rm_waiting_runs WHERE environment = $1 AND timer_id = $2', [env, data.timer_id]);
          break;
        default:
          await tx.query('DELETE FROM rm_waiting_runs WHERE environment = $1 AND run_id = $2', [env, data.run_id]);
      }
    }
  },
};
