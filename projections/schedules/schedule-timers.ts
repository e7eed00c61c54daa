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
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Runs one autocommit statement again when Postgres aborted it to break a deadlock (or a
 * serialization failure): the aborted statement wrote nothing, so running it again is safe. The
 * statements below lock their rows in key order, and so does the schedules projection before its
 * batch writes (ADR 0134), so these two cannot close a cycle; this stays for any other writer
 * that takes rows in another order (an operator's transaction, a future reactor).
 */
export async function retryingDeadlocks<T>(op: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (error) {
      const code =
        (error as { code?: string; driverError?: { code?: string } }).code ??
        (error as { driverError?: { code?: string } }).driverError?.code;
      if (attempt >= attempts || !code || !RETRYABLE.has(code)) throw error;
      // A short random pause lets the other side (a projection batch) commit first, so the
      // next try does not meet it in the same cycle again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * Math.min(attempt, 5)));
    }
  }
}

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
        const params = [
          advances.map((a) => a.environment),
          advances.map((a) => a.id),
          advances.map((a) => a.lastOccurrence),
          advances.map((a) => a.lastOccurrenceAt),
          advances.map((a) => a.next?.local ?? null),
          advances.map((a) => a.next?.at ?? null),
          advances.map((a) => a.revision),
        ];
        // The rows are locked in key order first, then moved.
        await retryingDeadlocks(() =>
          this.db.query(
            `WITH v AS (SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[], $7::int[])
                          AS v(environment, id, last, last_at, next, next_at, revision)),
                  locked AS (SELECT s.environment, s.id FROM rm_schedules s JOIN v ON s.environment = v.environment AND s.id = v.id
                              WHERE s.revision <= v.revision ORDER BY s.environment, s.id FOR UPDATE OF s)
             UPDATE rm_schedules s
                SET last_occurrence = COALESCE(v.last, s.last_occurrence), last_occurrence_at = COALESCE(v.last_at, s.last_occurrence_at),
                    next_occurrence = v.next, next_occurrence_at = v.next_at, revision = v.revision
               FROM v, locked l
              WHERE s.environment = l.environment AND s.id = l.id AND v.environment = l.environment AND v.id = l.id AND s.revision <= v.revision`,
            params,
          ),
        );
      }
      // The lease ends (rows not advanced, lost to a concurrent writer or a failure, are due again
      // at once); a lease another firer took meanwhile is not touched.
      await retryingDeadlocks(() =>
        this.db.query(
          `WITH locked AS (SELECT environment, id FROM rm_schedules
                            WHERE (environment, id) IN (SELECT * FROM unnest($1::text[], $2::uuid[])) AND claimed_until = $3
                            ORDER BY environment, id FOR UPDATE)
           UPDATE rm_schedules s SET claimed_until = NULL FROM locked l
            WHERE s.environment = l.environment AND s.id = l.id AND s.claimed_until = $3`,
          [rows.map((r) => r.environment), rows.map((r) => r.id), lease],
        ),
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
