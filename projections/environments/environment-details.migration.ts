import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the management API shows of an environment besides its name: who owns it, when it last changed. */
export class EnvironmentDetails1763712012100 implements MigrationInterface {
  name = 'EnvironmentDetails1763712012100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rm_environments ADD COLUMN owner text NOT NULL DEFAULT 'user'`);
    await q.query('ALTER TABLE rm_environments ADD COLUMN updated_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_environments DROP COLUMN updated_at');
    await q.query('ALTER TABLE rm_environments DROP COLUMN owner');
  }
}
