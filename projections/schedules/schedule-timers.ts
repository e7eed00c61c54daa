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
}

/** `UPDATE ... RETURNING` answers `[rows, count]` through TypeORM's postgres driver. */
const returned = <T>(result: unknown): T[] => (Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]));

/**
 * The schedules' timers: rows of rm_schedules whose next occurrence is due. A firer leases a
 * batch (one statement, FOR UPDATE SKIP LOCKED inside, so concurrent claims take disjoint
 * rows), decides it, then moves each row to its next occurrence and ends the lease. A firer that
 * dies leaves its lease to expire; the rows are then claimed again, and the schedule's stream
 * says what was already decided (ADR 0142). A row is only moved by a decision made at its
 * stream's latest revision the row knows of: an update recorded meanwhile is never undone. No transaction is held while the firer
 * works (the
 * embedded database has one connection).
 */
export class ScheduleTimers {
  constructor(
    private readonly db: DataSource,
    private readonly leaseMs = 30_000,
  ) {}

  async claim(now: Date, limit: number, work: (due: DueSchedule[]) => Promise<ScheduleAdvance[]>): Promise<number> {
    const lease = new Date(now.getTime() + this.leaseMs);
    const rows = returned<{ environment: string; id: string; time_zone: string }>(
      await this.db.query(
        `UPDATE rm_schedules s SET claimed_until = $2
          WHERE (s.environment, s.id) IN (
            SELECT environment, id FROM rm_schedules
             WHERE next_occurrence_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
             ORDER BY next_occurrence_at LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING s.environment, s.id, s.time_zone`,
        [now, lease, limit],
      ),
    );
    if (rows.length === 0) return 0;
    let advances: ScheduleAdvance[] = [];
    try {
      advances = await work(rows.map((r) => ({ environment: r.environment, id: r.id, timeZone: r.time_zone })));
    } finally {
      if (advances.length) {
        await this.db.query(
          `UPDATE rm_schedules s
              SET last_occurrence = COALESCE(v.last, s.last_occurrence), last_occurrence_at = COALESCE(v.last_at, s.last_occurrence_at),
                  next_occurrence = v.next, next_occurrence_at = v.next_at, revision = v.revision
             FROM unnest($1::text[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[], $7::int[]) AS v(environment, id, last, last_at, next, next_at, revision)
            WHERE s.environment = v.environment AND s.id = v.id AND s.revision <= v.revision`,
          [
            advances.map((a) => a.environment),
            advances.map((a) => a.id),
            advances.map((a) => a.lastOccurrence),
            advances.map((a) => a.lastOccurrenceAt),
            advances.map((a) => a.next?.local ?? null),
            advances.map((a) => a.next?.at ?? null),
            advances.map((a) => a.revision),
          ],
        );
      }
      // The lease ends (rows not advanced, lost to a concurrent writer or a failure, are due again
      // at once); a lease another firer took meanwhile is not touched.
      await this.db.query(
        'UPDATE rm_schedules SET claimed_until = NULL WHERE (environment, id) IN (SELECT * FROM unnest($1::text[], $2::uuid[])) AND claimed_until = $3',
        [rows.map((r) => r.environment), rows.map((r) => r.id), lease],
      );
    }
    return rows.length;
  }

  /** When the next schedule is due, if any (a leased one when its lease ends). */
  async nextDue(): Promise<Date | undefined> {
    const rows = await this.db.query<{ at: Date | null }[]>(
      'SELECT min(GREATEST(next_occurrence_at, claimed_until)) AS at FROM rm_schedules WHERE next_occurrence_at IS NOT NULL',
    );
    return rows[0]?.at ?? undefined;
  }
}
