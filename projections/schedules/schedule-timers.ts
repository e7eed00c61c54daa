import { LeasedRows, retryingDeadlocks } from '@notify/database';
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
  /** The stream revision the decision was made at (its own events included). */
  revision: number;
  /** The zone the decision was made in: a row whose zone changed meanwhile is not moved (it is due again and decided anew). */
  timeZone: string;
}

const SCHEDULE_LEASES = {
  table: 'rm_schedules',
  key: { column: 'id', type: 'uuid' },
  due: 'next_occurrence_at',
  pending: 'next_occurrence_at IS NOT NULL',
} as const;

/**
 * The schedules' timers: rows of rm_schedules whose next occurrence is due. A firer leases a
 * batch (one statement, FOR UPDATE SKIP LOCKED inside, so concurrent claims take disjoint
 * rows), decides it, then moves each row to its next occurrence and ends the lease. A firer that
 * dies leaves its lease to expire; the rows are then claimed again, and the schedule's stream
 * says what was already decided (ADR 0142). A row is only moved by a decision made at its
 * stream's latest revision the row knows of: an update recorded meanwhile is never undone. The
 * lease itself is the shared LeasedRows (ADR 0200).
 */
export class ScheduleTimers {
  private readonly leases: LeasedRows;

  constructor(
    private readonly db: DataSource,
    leaseMs = 30_000,
  ) {
    this.leases = new LeasedRows(db, SCHEDULE_LEASES, leaseMs);
  }

  async claim(now: Date, limit: number, work: (due: DueSchedule[]) => Promise<ScheduleAdvance[]>): Promise<number> {
    const { lease, rows } = await this.leases.claim<{ time_zone: string }>(now, limit, ['time_zone']);
    if (rows.length === 0) return 0;
    let advances: ScheduleAdvance[] = [];
    try {
      advances = await work(rows.map((r) => ({ environment: r.environment, id: r.key, timeZone: r.time_zone })));
    } finally {
      if (advances.length) {
        const params = [
          advances.map((a) => a.environment),
          advances.map((a) => a.id),
          advances.map((a) => a.lastOccurrence),
          advances.map((a) => a.lastOccurrenceAt),
          advances.map((a) => a.next?.local ?? null),
          advances.map((a) => a.next?.at ?? null),
          advances.map((a) => a.revision),
          advances.map((a) => a.timeZone),
        ];
        // The rows are locked in key order first, then moved.
        await retryingDeadlocks(() =>
          this.db.query(
            `WITH v AS (SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[], $7::int[], $8::text[])
                          AS v(environment, id, last, last_at, next, next_at, revision, time_zone)),
                  locked AS (SELECT s.environment, s.id FROM rm_schedules s JOIN v ON s.environment = v.environment AND s.id = v.id
                              WHERE s.revision <= v.revision AND s.time_zone = v.time_zone ORDER BY s.environment, s.id FOR UPDATE OF s)
             UPDATE rm_schedules s
                SET last_occurrence = COALESCE(v.last, s.last_occurrence), last_occurrence_at = COALESCE(v.last_at, s.last_occurrence_at),
                    next_occurrence = v.next, next_occurrence_at = v.next_at, revision = v.revision
               FROM v, locked l
              WHERE s.environment = l.environment AND s.id = l.id AND v.environment = l.environment AND v.id = l.id
                AND s.revision <= v.revision AND s.time_zone = v.time_zone`,
            params,
          ),
        );
      }
      // The lease ends (rows not advanced, lost to a concurrent writer or a failure, are due again
      // at once); a lease another firer took meanwhile is not touched.
      await this.leases.release(rows, lease);
    }
    return rows.length;
  }

  /** When the next schedule is due, if any (a leased one when its lease ends). */
  nextDue(): Promise<Date | undefined> {
    return this.leases.nextDue();
  }
}
