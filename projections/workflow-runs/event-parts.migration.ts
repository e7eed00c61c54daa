import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Compound events (ADR 0233): one log entry can stand for two events (a message created and
 * delivered, a run's last step and its completion), each a row of its own in a history. `part` is
 * a row's order within its log entry, after the entry's position (`seq`, `revision`): 0 for every
 * row written from a plain entry, which is what the default gives the rows already there.
 */
export class EventParts1763712040000 implements MigrationInterface {
  name = 'EventParts1763712040000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_workflow_recipient_run_events ADD COLUMN part smallint NOT NULL DEFAULT 0');
    await q.query('ALTER TABLE rm_message_events ADD COLUMN part smallint NOT NULL DEFAULT 0');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_message_events DROP COLUMN part');
    await q.query('ALTER TABLE rm_workflow_recipient_run_events DROP COLUMN part');
  }
}
