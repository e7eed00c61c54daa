import { MigrationInterface, QueryRunner } from 'typeorm';

export class ProjectionCheckpoints1763712000000 implements MigrationInterface {
  name = 'ProjectionCheckpoints1763712000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE projection_checkpoints (
        name           text PRIMARY KEY,
        version        integer NOT NULL,
        position       text NOT NULL DEFAULT '',
        events_applied bigint NOT NULL DEFAULT 0,
        updated_at     timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE projection_checkpoints');
  }
}
