import { MigrationInterface, QueryRunner } from 'typeorm';

export class GoalsReadModel1763712019600 implements MigrationInterface {
  name = 'GoalsReadModel1763712019600';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_goals (
        environment text NOT NULL,
        key         text NOT NULL,
        name        text NOT NULL,
        condition   jsonb NOT NULL,
        sha         text NOT NULL,
        archived    boolean NOT NULL DEFAULT false,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        PRIMARY KEY (environment, key)
      )`);
    await q.query('CREATE INDEX rm_goals_list_idx ON rm_goals (environment, created_at DESC, key DESC) WHERE NOT archived');
    // Source goals by what meets them: the source and its event type.
    await q.query(
      `CREATE INDEX rm_goals_source_idx ON rm_goals (environment, (condition->'event'->>'integration_source_key'), (condition->'event'->>'event_key')) WHERE NOT archived`,
    );
    await q.query(`
      CREATE TABLE rm_goal_conversions (
        environment     text NOT NULL,
        goal_key        text NOT NULL,
        run_id          uuid NOT NULL,
        workflow_run_id uuid NOT NULL,
        workflow_key    text NOT NULL,
        recipient_id    text NOT NULL,
        converted_at    timestamptz NOT NULL,
        PRIMARY KEY (environment, goal_key, run_id)
      )`);
    await q.query('CREATE INDEX rm_goal_conversions_workflow_idx ON rm_goal_conversions (environment, workflow_key)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_goal_conversions');
    await q.query('DROP TABLE rm_goals');
  }
}
