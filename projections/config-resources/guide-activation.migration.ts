import { MigrationInterface, QueryRunner } from 'typeorm';

/** A guide can be active for a window: its bounds, null when unbounded (ADR 0186). */
export class GuideActivationWindow1763712019150 implements MigrationInterface {
  name = 'GuideActivationWindow1763712019150';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rm_config_resources ADD COLUMN active_from timestamptz, ADD COLUMN active_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rm_config_resources DROP COLUMN active_until, DROP COLUMN active_from`);
  }
}
