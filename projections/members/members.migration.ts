import { MigrationInterface, QueryRunner } from 'typeorm';

export class MembersReadModel1763712019760 implements MigrationInterface {
  name = 'MembersReadModel1763712019760';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_members (
        id         uuid PRIMARY KEY,
        user_id    uuid NOT NULL,
        email      text NOT NULL UNIQUE,
        name       text,
        role       text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_members');
  }
}
