import { MessageDeliveryAttemptCompleted, RunCancelled, RunCompleted, TimerFired, TimerScheduled } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/**
 * Pending timers of every stream, indexed by due time: what the timer service polls. A timer of
 * a run that ended is cancelled here so it is never fired, and so is the check timer of a
 * delivery attempt that finished (it only matters for attempts a stopped worker left unfinished).
 */
export const timersProjection = defineProjection({
  name: 'timers',
  version: 2,
  tables: ['rm_timers'],
  events: [TimerScheduled, TimerFired, RunCancelled, RunCompleted, MessageDeliveryAttemptCompleted],

  async applyBatch(events, tx) {
    // Consecutive cancellations (a run ending, an attempt completing) go out as one statement;
    // anything else first flushes them, so the log's order is kept.
    let ended: { stream: string; at: Date; checkOnly: boolean }[] = [];
    const flush = async () => {
      if (ended.length === 0) return;
      await tx.query(
        `UPDATE rm_timers t SET cancelled_at = v.at
           FROM unnest($1::text[], $2::timestamptz[], $3::bool[]) AS v(stream_id, at, check_only)
          WHERE t.stream_id = v.stream_id AND t.fired_at IS NULL AND t.cancelled_at IS NULL
            AND (NOT v.check_only OR t.purpose = 'delivery_check')`,
        [ended.map((e) => e.stream), ended.map((e) => e.at), ended.map((e) => e.checkOnly)],
      );
      ended = [];
    };
    for (const event of events) {
      switch (event.type) {
        case 'TimerScheduled':
          await flush();
          await tx.query(
            `INSERT INTO rm_timers (timer_id, environment, stream_id, purpose, fire_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (timer_id) DO NOTHING`,
            [event.data.timer_id, event.environment, event.streamId, event.data.purpose, event.data.fire_at],
          );
          break;
        case 'TimerFired':
          await flush();
          await tx.query('UPDATE rm_timers SET fired_at = $2 WHERE timer_id = $1', [event.data.timer_id, event.data.fired_at]);
          break;
        case 'RunCancelled':
        case 'RunCompleted':
          // A run that never paused never scheduled a timer (ADR 0257).
          if (!event.data.never_paused) ended.push({ stream: event.streamId, at: event.createdAt, checkOnly: false });
          break;
        case 'MessageDeliveryAttemptCompleted':
          // Only the attempt's check timer: a retry timer scheduled with it stays.
          ended.push({ stream: event.streamId, at: event.createdAt, checkOnly: true });
          break;
      }
    }
    await flush();
  },
});
