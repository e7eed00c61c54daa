import { Occurrence, occurrences, RepeatRule } from './recurrence';

/** What decides a schedule's occurrences, as the decider's state and the read model both keep it. */
export interface ScheduleTiming {
  repeats: readonly RepeatRule[];
  scheduledAt: string | null;
  endingAt: string | null;
  createdAt: string;
  /** Occurrences count from this instant: the creation, or the last change of timing. */
  countFrom: string;
  /** The last occurrence decided (fired or skipped): occurrences continue after its local date-time. */
  lastOccurrence: string | null;
}

/**
 * The occurrences not decided yet, oldest first: due ones (at or before `until`, when given)
 * and upcoming ones. A one-off schedule has one occurrence in its life.
 */
export function pendingOccurrences(timing: ScheduleTiming, timeZone: string, options: { limit: number; until?: string }): Occurrence[] {
  if (timing.repeats.length === 0 && timing.lastOccurrence !== null) return [];
  return occurrences(
    { repeats: timing.repeats, scheduledAt: timing.scheduledAt, endingAt: timing.endingAt, anchor: timing.scheduledAt ?? timing.createdAt },
    timeZone,
    { notBefore: timing.countFrom, afterLocal: timing.lastOccurrence, limit: options.limit, until: options.until },
  );
}

export const nextPendingOccurrence = (timing: ScheduleTiming, timeZone: string): Occurrence | null =>
  pendingOccurrences(timing, timeZone, { limit: 1 })[0] ?? null;
