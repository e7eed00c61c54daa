import { MigrationInterface, QueryRunner } from 'typeorm';

export class WaitingRunsReadModel1763712005000 implements MigrationInterface {
  name = 'WaitingRunsReadModel1763712005000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_waiting_runs (
        environment          text NOT NULL,
        run_id               uuid NOT NULL,
        step_ref             text NOT NULL,
        recipient_type       text NOT NULL,
        recipient_collection text NOT NULL DEFAULT '',
        recipient_id         text NOT NULL,
        event_type           text NOT NULL,
        event_key            text NOT NULL,
        source_key           text NOT NULL,
        waiting_for          jsonb NOT NULL,
        timer_id             text,
        waiting_since        timestamptz NOT NULL,
        PRIMARY KEY (environment, run_id)
      )`);
    await q.query(
      'CREATE INDEX rm_waiting_runs_match_idx ON rm_waiting_runs (environment, recipient_type, recipient_collection, recipient_id, event_type, source_key)',
    );
    await q.query('CREATE INDEX rm_waiting_runs_timer_idx ON rm_waiting_runs (timer_id) WHERE timer_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_waiting_runs');
  }
}
