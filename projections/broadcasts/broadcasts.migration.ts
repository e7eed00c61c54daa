import { MigrationInterface, QueryRunner } from 'typeorm';

export class BroadcastsReadModel1763712017100 implements MigrationInterface {
  name = 'BroadcastsReadModel1763712017100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_broadcasts (
        environment   text NOT NULL,
        key           text NOT NULL,
        content       jsonb NOT NULL,
        sha           text NOT NULL,
        valid         boolean NOT NULL,
        errors        jsonb NOT NULL,
        status        text NOT NULL,
        send_id       uuid,
        send_at       timestamptz,
        started_at    timestamptz,
        completed_at  timestamptz,
        recipients    integer NOT NULL DEFAULT 0,
        -- A sender's lease on the row (ADR 0172, as rm_schedules in ADR 0142): others skip it until then.
        claimed_until timestamptz,
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        PRIMARY KEY (environment, key)
      )`);
    await q.query('CREATE INDEX rm_broadcasts_list_idx ON rm_broadcasts (environment, created_at DESC, key DESC)');
    // The sender's work: scheduled sends coming due and sends in progress.
    await q.query(`CREATE INDEX rm_broadcasts_due_idx ON rm_broadcasts (send_at) WHERE status IN ('scheduled', 'sending')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_broadcasts');
  }
}
