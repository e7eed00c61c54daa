import { MigrationInterface, QueryRunner } from 'typeorm';

export class VariablesReadModel1763712002300 implements MigrationInterface {
  name = 'VariablesReadModel1763712002300';

  async up(q: QueryRunner): Promise<void> {
    // Values are stored as the events carry them: secret ones stay sealed.
    await q.query(`
      CREATE TABLE rm_variables (
        key                text PRIMARY KEY,
        type               text NOT NULL,
        description        text,
        value              jsonb,
        environment_values jsonb NOT NULL DEFAULT '{}',
        inserted_at        timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_variables');
  }
}
