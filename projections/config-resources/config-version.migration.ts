import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row: the log position of the last configuration event the config-resources projection
 * applied (workflows, their activation, commits, promotions, branches). Authentication reads it
 * with the key; a workflow cached per process is used only while it is unchanged (ADR 0217).
 * It starts empty (nothing is cached under an empty version), and the next change sets it.
 */
export class ConfigVersion1763712028000 implements MigrationInterface {
  name = 'ConfigVersion1763712028000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE rm_config_version (id smallint PRIMARY KEY CHECK (id = 1), position text NOT NULL)`);
    await q.query(`INSERT INTO rm_config_version (id, position) VALUES (1, '')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_config_version');
  }
}
