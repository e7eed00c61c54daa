import { MigrationInterface, QueryRunner } from 'typeorm';

export class TagsReadModel1763712019210 implements MigrationInterface {
  name = 'TagsReadModel1763712019210';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_tags (
        name        text PRIMARY KEY,
        description text,
        color       text,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_tags');
  }
}
