import { DataSource } from 'typeorm';

export interface DueTimer {
  timerId: string;
  streamId: string;
  environment: string | null;
  purpose: string;
  fireAt: Date;
}

/** The timer service's reads. Timers are not per environment: one service fires them all. */
export class TimerQueries {
  constructor(private readonly db: DataSource) {}

  async due(now: Date, limit: number): Promise<DueTimer[]> {
    const rows = await this.db.query<{ timer_id: string; stream_id: string; environment: string | null; purpose: string; fire_at: Date }[]>(
      `SELECT timer_id, stream_id, environment, purpose, fire_at FROM rm_timers
       WHERE fired_at IS NULL AND cancelled_at IS NULL AND fire_at <= $1 ORDER BY fire_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => ({
      timerId: r.timer_id,
      streamId: r.stream_id,
      environment: r.environment,
      purpose: r.purpose,
      fireAt: r.fire_at,
    }));
  }

  /** When the next pending timer is due, if any. */
  async nextDue(): Promise<Date | undefined> {
    const rows = await this.db.query<{ fire_at: Date }[]>(
      'SELECT min(fire_at) AS fire_at FROM rm_timers WHERE fired_at IS NULL AND cancelled_at IS NULL',
    );
    return rows[0]?.fire_at ?? undefined;
  }
}
