import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowRunsReadModel1763712006000 implements MigrationInterface {
  name = 'WorkflowRunsReadModel1763712006000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_workflow_recipient_runs (
        environment          text NOT NULL,
        id                   uuid NOT NULL,
        workflow_run_id      uuid NOT NULL,
        workflow             text NOT NULL,
        recipient_type       text NOT NULL,
        recipient_id         text NOT NULL,
        recipient_collection text,
        actor                jsonb,
        tenant               text,
        status               text NOT NULL,
        error_count          integer NOT NULL DEFAULT 0,
        trigger_source       jsonb NOT NULL,
        cancellation_key     text,
        subscribed_to        jsonb,
        trigger_position     text NOT NULL,
        inserted_at          timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    await q.query('CREATE INDEX rm_wrr_listing_idx ON rm_workflow_recipient_runs (environment, inserted_at DESC, id DESC)');
    await q.query('CREATE INDEX rm_wrr_workflow_idx ON rm_workflow_recipient_runs (environment, workflow, inserted_at DESC, id DESC)');
    await q.query(
      'CREATE INDEX rm_wrr_recipient_idx ON rm_workflow_recipient_runs (environment, recipient_type, recipient_id, inserted_at DESC, id DESC)',
    );
    await q.query('CREATE INDEX rm_wrr_workflow_run_idx ON rm_workflow_recipient_runs (environment, workflow_run_id)');
    // What the cancellation reactor looks for: the active runs of a workflow and cancellation key.
    await q.query(
      `CREATE INDEX rm_wrr_cancellable_idx ON rm_workflow_recipient_runs (environment, workflow, cancellation_key)
       WHERE cancellation_key IS NOT NULL AND status IN ('queued', 'processing', 'paused')`,
    );
    await q.query(`
      CREATE TABLE rm_workflow_recipient_run_events (
        environment text NOT NULL,
        id          uuid NOT NULL,
        run_id      uuid NOT NULL,
        seq         bigint NOT NULL,
        event       text NOT NULL,
        status      text NOT NULL,
        step_ref    text,
        step_type   text,
        attempt     integer,
        data        jsonb,
        inserted_at timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    await q.query('CREATE INDEX rm_wrr_events_run_idx ON rm_workflow_recipient_run_events (environment, run_id, seq)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_workflow_recipient_run_events');
    await q.query('DROP TABLE rm_workflow_recipient_runs');
  }
}
