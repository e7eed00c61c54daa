import { deciderSpec } from '@notify/testing/decider-spec';
import { fold } from '../shared/decider';
import { ScheduleDefinition } from './schedule.commands';
import { scheduleDecider } from './schedule.decider';
import { ScheduleEvent } from './schedule.events';

const id = '5c1e0a52-0000-4000-8000-000000000001';
const created0 = '2026-03-01T12:00:00.000Z';
const daily9 = { frequency: 'daily' as const, interval: 1, days: null, day_of_month: null, hours: 9, minutes: 0 };
const definition: ScheduleDefinition = {
  workflow: 'digest',
  recipient: { type: 'user', id: 'ada' },
  actor: null,
  tenant: null,
  data: { a: 1 },
  repeats: [daily9],
  scheduledAt: null,
  endingAt: null,
};
const created: ScheduleEvent = {
  type: 'ScheduleCreated',
  data: {
    schedule_id: id,
    workflow: 'digest',
    recipient: { type: 'user', id: 'ada' },
    actor: null,
    tenant: null,
    data: { a: 1 },
    repeats: [daily9],
    scheduled_at: null,
    ending_at: null,
    created_at: created0,
  },
};
const runIdFor = (occurrence: string) => `run:${occurrence}`;
const fire = (now: string, extra: Partial<{ timeZone: string; skipReason: string | null; catchUpMs: number; limit: number }> = {}) => ({
  type: 'FireDueOccurrences' as const,
  scheduleId: id,
  now,
  timeZone: 'UTC',
  catchUpMs: 3_600_000,
  skipReason: null as string | null,
  runIdFor: runIdFor as (o: string) => string,
  limit: 100,
  ...extra,
});
const fired = (
  occurrence: string,
  dueAt: string,
  now: string,
  status: 'triggered' | 'skipped' = 'triggered',
  reason: string | null = null,
  timeZone = 'UTC',
): ScheduleEvent => ({
  type: 'OccurrenceFired',
  data: {
    schedule_id: id,
    occurrence,
    due_at: dueAt,
    time_zone: timeZone,
    status,
    reason,
    workflow_run_id: status === 'triggered' ? `run:${occurrence}` : null,
    fired_at: now,
  },
});

describe('schedule decider', () => {
  const spec = deciderSpec(scheduleDecider);

  it('creates once; a retry with the same id creates nothing', () => {
    spec.given([]).when({ type: 'CreateSchedule', scheduleId: id, definition, now: created0 }).then([created]);
    spec.given([created]).when({ type: 'CreateSchedule', scheduleId: id, definition, now: '2026-03-02T00:00:00.000Z' }).thenNothing();
  });

  it('refuses a schedule that can never fire or ends before it starts', () => {
    spec
      .given([])
      .when({ type: 'CreateSchedule', scheduleId: id, definition: { ...definition, repeats: [] }, now: created0 })
      .thenThrows('invalid_params');
    spec
      .given([])
      .when({
        type: 'CreateSchedule',
        scheduleId: id,
        definition: { ...definition, scheduledAt: '2026-03-05T00:00:00Z', endingAt: '2026-03-04T00:00:00Z' },
        now: created0,
      })
      .thenThrows('invalid_params');
    spec
      .given([created])
      .when({ type: 'UpdateSchedule', scheduleId: id, patch: { repeats: [] }, now: created0 })
      .thenThrows('invalid_params');
  });

  it('records only what an update changes; nothing when nothing changes; 404 for a deleted schedule', () => {
    const now = '2026-03-03T00:00:00.000Z';
    spec
      .given([created])
      .when({ type: 'UpdateSchedule', scheduleId: id, patch: { data: { a: 1 }, tenant: 'acme' }, now })
      .then([{ type: 'ScheduleUpdated', data: { schedule_id: id, tenant: 'acme', updated_at: now } }]);
    spec
      .given([created])
      .when({ type: 'UpdateSchedule', scheduleId: id, patch: { data: { a: 1 }, repeats: [daily9] }, now })
      .thenNothing();
    const deleted: ScheduleEvent = { type: 'ScheduleDeleted', data: { schedule_id: id, reason: 'requested', deleted_at: now } };
    spec
      .given([created, deleted])
      .when({ type: 'UpdateSchedule', scheduleId: id, patch: { tenant: 'x' }, now })
      .thenThrows('resource_missing');
    spec.given([created, deleted]).when({ type: 'DeleteSchedule', scheduleId: id, reason: 'requested', now }).thenNothing();
    spec
      .given([created])
      .when({ type: 'DeleteSchedule', scheduleId: id, reason: 'recipient_deleted', now })
      .then([{ ...deleted, data: { ...deleted.data, reason: 'recipient_deleted' } } as ScheduleEvent]);
  });

  it('fires a due occurrence once: the second decision at the same time, or later the same day, records nothing', () => {
    const now = '2026-03-02T09:00:30.000Z';
    spec
      .given([created])
      .when(fire(now))
      .then([fired('2026-03-02T09:00', '2026-03-02T09:00:00Z', now)]);
    spec
      .given([created, fired('2026-03-02T09:00', '2026-03-02T09:00:00Z', now)])
      .when(fire(now))
      .thenNothing();
    spec
      .given([created, fired('2026-03-02T09:00', '2026-03-02T09:00:00Z', now)])
      .when(fire('2026-03-02T20:00:00.000Z'))
      .thenNothing();
    // Nothing is due before the first occurrence.
    spec.given([created]).when(fire('2026-03-02T08:59:59.000Z')).thenNothing();
  });

  it('after a downtime: older than the catch-up window skipped as missed, the rest within it triggered', () => {
    const hourly = {
      ...created,
      data: { ...created.data, repeats: [{ ...daily9, frequency: 'hourly' as const, hours: null, minutes: 0 }] },
    } as ScheduleEvent;
    const now = '2026-03-01T16:30:00.000Z';
    spec
      .given([hourly])
      .when(fire(now, { catchUpMs: 90 * 60_000 }))
      .then([
        // Created at 12:00:00.000: 12:00 itself counts.
        fired('2026-03-01T12:00', '2026-03-01T12:00:00Z', now, 'skipped', 'missed'),
        fired('2026-03-01T13:00', '2026-03-01T13:00:00Z', now, 'skipped', 'missed'),
        fired('2026-03-01T14:00', '2026-03-01T14:00:00Z', now, 'skipped', 'missed'),
        fired('2026-03-01T15:00', '2026-03-01T15:00:00Z', now),
        fired('2026-03-01T16:00', '2026-03-01T16:00:00Z', now),
      ]);
    // At most `limit` at once: the rest on the next decision.
    spec
      .given([hourly])
      .when(fire(now, { limit: 1 }))
      .then([fired('2026-03-01T12:00', '2026-03-01T12:00:00Z', now, 'skipped', 'missed')]);
  });

  it('skips with a reason when the workflow is inactive or missing', () => {
    const now = '2026-03-02T09:00:30.000Z';
    spec
      .given([created])
      .when(fire(now, { skipReason: 'workflow_inactive' }))
      .then([fired('2026-03-02T09:00', '2026-03-02T09:00:00Z', now, 'skipped', 'workflow_inactive')]);
    spec
      .given([created])
      .when(fire(now, { skipReason: 'workflow_missing' }))
      .then([fired('2026-03-02T09:00', '2026-03-02T09:00:00Z', now, 'skipped', 'workflow_missing')]);
  });

  it("fires in the recipient's zone, and a move to another zone continues after the last local date-time", () => {
    const berlin = '2026-03-02T08:00:30.000Z';
    spec
      .given([created])
      .when(fire(berlin, { timeZone: 'Europe/Berlin' }))
      .then([fired('2026-03-02T09:00', '2026-03-02T08:00:00Z', berlin, 'triggered', null, 'Europe/Berlin')]);
    // The recipient moved to New York after Berlin's 09:00: New York's 09:00 the same day is not fired again.
    const history = [created, fired('2026-03-02T09:00', '2026-03-02T08:00:00Z', berlin, 'triggered', null, 'Europe/Berlin')];
    spec
      .given(history)
      .when(fire('2026-03-02T14:00:30.000Z', { timeZone: 'America/New_York' }))
      .thenNothing();
    const next = '2026-03-03T14:00:30.000Z';
    spec
      .given(history)
      .when(fire(next, { timeZone: 'America/New_York' }))
      .then([fired('2026-03-03T09:00', '2026-03-03T14:00:00Z', next, 'triggered', null, 'America/New_York')]);
  });

  it('a one-off fires once; an update of timing counts occurrences from the update', () => {
    const oneOff = { ...created, data: { ...created.data, repeats: [], scheduled_at: '2026-03-02T10:00:00Z' } } as ScheduleEvent;
    const now = '2026-03-02T10:00:01.000Z';
    spec
      .given([oneOff])
      .when(fire(now))
      .then([fired('2026-03-02T10:00', '2026-03-02T10:00:00Z', now)]);
    spec
      .given([oneOff, fired('2026-03-02T10:00', '2026-03-02T10:00:00Z', now)])
      .when(fire('2026-03-09T10:00:01.000Z'))
      .thenNothing();

    // Moved to 18:00 at 12:00 on the 2nd: the 09:00 of that morning is not caught up.
    const updated: ScheduleEvent = {
      type: 'ScheduleUpdated',
      data: { schedule_id: id, repeats: [{ ...daily9, hours: 18 }], updated_at: '2026-03-02T12:00:00.000Z' },
    };
    const evening = '2026-03-02T18:00:05.000Z';
    spec
      .given([created, updated])
      .when(fire(evening, { catchUpMs: 86_400_000 }))
      .then([fired('2026-03-02T18:00', '2026-03-02T18:00:00Z', evening)]);
    const state = fold(scheduleDecider, [created, updated]);
    expect(state.definition?.repeats[0].hours).toBe(18);
    expect(state.timing?.countFrom).toBe('2026-03-02T12:00:00.000Z');
  });

  it('a deleted schedule fires nothing', () => {
    const deleted: ScheduleEvent = {
      type: 'ScheduleDeleted',
      data: { schedule_id: id, reason: 'requested', deleted_at: '2026-03-02T00:00:00.000Z' },
    };
    spec.given([created, deleted]).when(fire('2026-03-02T09:00:30.000Z')).thenNothing();
  });
});
