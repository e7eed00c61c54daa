import { MigrationInterface, QueryRunner } from 'typeorm';

export class TimersReadModel1763712000500 implements MigrationInterface {
  name = 'TimersReadModel1763712000500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_timers (
        timer_id    text PRIMARY KEY,
        environment text,
        stream_id   text NOT NULL,
        purpose     text NOT NULL,
        fire_at     timestamptz NOT NULL,
        fired_at    timestamptz,
        cancelled_at timestamptz
      )`);
    await q.query('CREATE INDEX rm_timers_due_idx ON rm_timers (fire_at) WHERE fired_at IS NULL AND cancelled_at IS NULL');
    await q.query('CREATE INDEX rm_timers_stream_idx ON rm_timers (stream_id) WHERE fired_at IS NULL AND cancelled_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_timers');
  }
}
