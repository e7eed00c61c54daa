import { MigrationInterface, QueryRunner } from 'typeorm';

export class UsersReadModel1763712000200 implements MigrationInterface {
  name = 'UsersReadModel1763712000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_users (
        environment text NOT NULL,
        id          text NOT NULL,
        properties  jsonb NOT NULL DEFAULT '{}',
        inserted_at timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    await q.query('CREATE INDEX rm_users_listing_idx ON rm_users (environment, inserted_at DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_users');
  }
}
