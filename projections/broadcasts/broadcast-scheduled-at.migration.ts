import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The time a broadcast's send was scheduled for, kept once the send starts and ends (ADR 0275).
 * Filled by the projection's rebuild (its version moved to 2).
 */
export class BroadcastScheduledAt1763712099000 implements MigrationInterface {
  name = 'BroadcastScheduledAt1763712099000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_broadcasts ADD COLUMN scheduled_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_broadcasts DROP COLUMN scheduled_at');
  }
}
