import { RunCancelled, RunCompleted, RunPaused, RunResumed, TimerFired } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

interface WaitingForEvent {
  event_type: string;
  event_key: string;
  source_key: string;
  recipient: { type: 'user'; id: string } | { type: 'object'; collection: string; id: string };
}

const isEventWait = (w: unknown): w is WaitingForEvent =>
  !!w &&
  typeof w === 'object' &&
  typeof (w as WaitingForEvent).event_type === 'string' &&
  typeof (w as WaitingForEvent).recipient === 'object';

/**
 * Runs paused on a wait_for_event step, by recipient and the event they wait for: what the
 * wait-for-event reactor looks up when something happens. A run leaves it when it resumes,
 * completes, is cancelled, or its expiry timer fires.
 */
export const waitingRunsProjection = defineProjection({
  name: 'waiting-runs',
  version: 1,
  tables: ['rm_waiting_runs'],
  events: [RunPaused, RunResumed, RunCompleted, RunCancelled, TimerFired],
  streamPrefixes: ['run-'],

  async applyBatch(events, tx) {
    // Runs leaving the table are deleted in one statement per run of consecutive leavers (most
    // runs never waited; one round trip per run ending would dominate this projection).
    let leaving: { env: string | null; runId: string }[] = [];
    const flush = async () => {
      if (leaving.length === 0) return;
      await tx.query(
        'DELETE FROM rm_waiting_runs w USING unnest($1::text[], $2::uuid[]) AS v(environment, run_id) WHERE w.environment = v.environment AND w.run_id = v.run_id',
        [leaving.map((l) => l.env), leaving.map((l) => l.runId)],
      );
      leaving = [];
    };
    for (const event of events) {
      const env = event.environment;
      switch (event.type) {
        case 'RunPaused': {
          const data = event.data;
          if (data.reason !== 'wait_for_event' || !isEventWait(data.waiting_for)) break;
          await flush();
          const w = data.waiting_for;
          await tx.query(
            `INSERT INTO rm_waiting_runs (environment, run_id, step_ref, recipient_type, recipient_collection, recipient_id, event_type, event_key, source_key, waiting_for, timer_id, waiting_since)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)
             ON CONFLICT (environment, run_id) DO UPDATE SET step_ref = EXCLUDED.step_ref, event_type = EXCLUDED.event_type, event_key = EXCLUDED.event_key,
               source_key = EXCLUDED.source_key, waiting_for = EXCLUDED.waiting_for, timer_id = EXCLUDED.timer_id, waiting_since = EXCLUDED.waiting_since`,
            [
              env,
              data.run_id,
              data.step_ref,
              w.recipient.type,
              w.recipient.type === 'object' ? w.recipient.collection : '',
              w.recipient.id,
              w.event_type,
              w.event_key,
              w.source_key,
              JSON.stringify(w),
              data.timer_id ?? null,
              data.at ?? event.createdAt.toISOString(),
            ],
          );
          break;
        }
        case 'TimerFired':
          await flush();
          await tx.query('DELETE FROM rm_waiting_runs WHERE environment = $1 AND timer_id = $2', [env, event.data.timer_id]);
          break;
        default:
          // A run that never paused never waited (ADR 0257).
          if (event.data.run_id && !('never_paused' in event.data && event.data.never_paused))
            leaving.push({ env, runId: event.data.run_id });
      }
    }
    await flush();
  },
});
