import { MigrationInterface, QueryRunner } from 'typeorm';

export class PreferenceCenterReadModel1763712019100 implements MigrationInterface {
  name = 'PreferenceCenterReadModel1763712019100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_preference_categories (
        name        text PRIMARY KEY,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        archived_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE rm_preference_centers (
        environment text PRIMARY KEY,
        config      jsonb NOT NULL,
        enabled     boolean NOT NULL,
        updated_at  timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_preference_centers');
    await q.query('DROP TABLE rm_preference_categories');
  }
}
