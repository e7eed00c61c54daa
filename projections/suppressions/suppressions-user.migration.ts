import { MigrationInterface, QueryRunner } from 'typeorm';

/** Whose address a suppression is, so that erasing the user removes it (the projection's version 2 fills it). */
export class SuppressionsUser1763712026000 implements MigrationInterface {
  name = 'SuppressionsUser1763712026000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_suppressions ADD COLUMN user_id text');
    await q.query('CREATE INDEX rm_suppressions_user_idx ON rm_suppressions (environment, user_id) WHERE user_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX rm_suppressions_user_idx');
    await q.query('ALTER TABLE rm_suppressions DROP COLUMN user_id');
  }
}
