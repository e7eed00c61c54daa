import { EventOf, TimerFired, TimerScheduled } from '@notify/contracts';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled = EventOf<typeof TimerScheduled> | EventOf<typeof TimerFired> | { type: 'RunCancelled' | 'RunCompleted' | 'MessageDeliveryAttemptCompleted'; data: unknown };

/**
 * Pending timers of every stream, indexed by due time: what the timer service polls. A timer of
 * a run that ended is cancelled here so it is never fired, and so is the check timer of a
 * delivery attempt that finished (it only matters for attempts a stopped worker left unfinished).
 */
export const timersProjection: Projection = {
  name: 'timers',
  version: 2,
  filter: { eventTypes: ['TimerScheduled', 'TimerFired', 'RunCancelled', 'RunCompleted', 'MessageDeliveryAttemptCompleted'] },
  tables: ['rm_timers'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      switch (event.type) {
        case 'TimerScheduled':
          await tx.query(
            `INSERT INTO rm_timers (timer_id, environment, stream_id, purpose, fire_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (timer_id) DO NOTHING`,
            [event.data.timer_id, recorded.metadata.environment, recorded.streamId, event.data.purpose, event.data.fire_at],
          );
          break;
        case 'TimerFired':
          await tx.query('UPDATE rm_timers SET fired_at = $2 WHERE timer_id = $1', [event.data.timer_id, event.data.fired_at]);
          break;
        case 'RunCancelled':
        case 'RunCompleted':
          await tx.query('UPDATE rm_timers SET cancelled_at = $2 WHERE stream_id = $1 AND fired_at IS NULL AND cancelled_at IS NULL', [recorded.streamId, recorded.createdAt]);
          break;
        case 'MessageDeliveryAttemptCompleted':
          await tx.query(
            "UPDATE rm_timers SET cancelled_at = $2 WHERE stream_id = $1 AND purpose = 'delivery_check' AND fired_at IS NULL AND cancelled_at IS NULL",
            [recorded.streamId, recorded.createdAt],
          );
          break;
      }
    }
  },
};
