import { DataSource } from 'typeorm';

export interface DueSchedule {
  environment: string;
  id: string;
  /** The zone its next occurrence was computed in (the recipient's, as this read model follows it). */
  timeZone: string;
}

/** Where the firer leaves a schedule after deciding its due occurrences (the same values the projection computes from the events). */
export interface ScheduleAdvance {
  environment: string;
  id: string;
  /** The last occurrence now decided; null when none was. */
  lastOccurrence: string | null;
  lastOccurrenceAt: string | null;
  next: { local: string; at: string } | null;
}

/**
 * The schedules' timers: the rows of rm_schedules whose next occurrence is due. A batch is
 * claimed with FOR UPDATE SKIP LOCKED, so workers claim disjoint batches; the claim holds until
 * the firer has appended its decisions and moved each row to its next occurrence, in the same
 * transaction (ADR 0142). The projection later applies the same events to the same values.
 */
export class ScheduleTimers {
  constructor(private readonly db: DataSource) {}

  async claim(now: Date, limit: number, work: (due: DueSchedule[]) => Promise<ScheduleAdvance[]>): Promise<number> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ environment: string; id: string; time_zone: string }[]>(
        `SELECT environment, id, time_zone FROM rm_schedules
          WHERE next_occurrence_at <= $1 ORDER BY next_occurrence_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      if (rows.length === 0) return 0;
      const advances = await work(rows.map((r) => ({ environment: r.environment, id: r.id, timeZone: r.time_zone })));
      if (advances.length) {
        await tx.query(
          `UPDATE rm_schedules s
              SET last_occurrence = COALESCE(v.last, s.last_occurrence), last_occurrence_at = COALESCE(v.last_at, s.last_occurrence_at),
                  next_occurrence = v.next, next_occurrence_at = v.next_at
             FROM unnest($1::text[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[]) AS v(environment, id, last, last_at, next, next_at)
            WHERE s.environment = v.environment AND s.id = v.id
              AND (v.last IS NULL OR s.last_occurrence IS NULL OR s.last_occurrence <= v.last)`,
          [
            advances.map((a) => a.environment),
            advances.map((a) => a.id),
            advances.map((a) => a.lastOccurrence),
            advances.map((a) => a.lastOccurrenceAt),
            advances.map((a) => a.next?.local ?? null),
            advances.map((a) => a.next?.at ?? null),
          ],
        );
      }
      return rows.length;
    });
  }

  /** When the next schedule is due, if any. */
  async nextDue(): Promise<Date | undefined> {
    const rows = await this.db.query<{ at: Date | null }[]>('SELECT min(next_occurrence_at) AS at FROM rm_schedules WHERE next_occurrence_at IS NOT NULL');
    return rows[0]?.at ?? undefined;
  }
}
