import { RecipientRefT, StoredRepeatRuleT } from '@notify/contracts';
import { isKnownTimeZone, nextPendingOccurrence, Occurrence, ScheduleTiming } from '@notify/domain';

export interface ScheduleRow {
  environment: string;
  id: string;
  workflow: string;
  recipient_type: string;
  recipient_collection: string;
  recipient_id: string;
  actor: RecipientRefT | null;
  tenant: string | null;
  data: Record<string, unknown> | null;
  repeats: StoredRepeatRuleT[];
  scheduled_at: Date | null;
  ending_at: Date | null;
  count_from: Date;
  last_occurrence: string | null;
  last_occurrence_at: Date | null;
  time_zone: string;
  next_occurrence: string | null;
  next_occurrence_at: Date | null;
  inserted_at: Date;
  updated_at: Date;
}

const iso = (d: Date | string | null) => (d === null ? null : typeof d === 'string' ? new Date(d).toISOString() : d.toISOString());

export function timingOf(
  row: Pick<ScheduleRow, 'repeats' | 'scheduled_at' | 'ending_at' | 'inserted_at' | 'count_from' | 'last_occurrence'>,
): ScheduleTiming {
  return {
    repeats: row.repeats,
    scheduledAt: iso(row.scheduled_at),
    endingAt: iso(row.ending_at),
    createdAt: iso(row.inserted_at)!,
    countFrom: iso(row.count_from)!,
    lastOccurrence: row.last_occurrence,
  };
}

/**
 * The zone a recipient's schedules fire in: its own `timezone` when it names a zone, else the
 * default setting (SCHEDULES_DEFAULT_TIMEZONE), else UTC.
 */
export function scheduleZone(recipientZone: unknown, defaultZone: string): { zone: string; source: 'recipient' | 'default' | 'utc' } {
  if (typeof recipientZone === 'string' && isKnownTimeZone(recipientZone)) return { zone: recipientZone, source: 'recipient' };
  if (defaultZone !== 'UTC' && isKnownTimeZone(defaultZone)) return { zone: defaultZone, source: 'default' };
  return { zone: 'UTC', source: 'utc' };
}

export const nextOf = (timing: ScheduleTiming, zone: string): Occurrence | null => nextPendingOccurrence(timing, zone);
