import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReactorCheckpoints1763712000010 implements MigrationInterface {
  name = 'ReactorCheckpoints1763712000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reactor_checkpoints (
        name           text PRIMARY KEY,
        position       text NOT NULL DEFAULT '',
        events_handled bigint NOT NULL DEFAULT 0,
        updated_at     timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE reactor_checkpoints');
  }
}
