import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Static audiences made by a members call with create_audience (ADR 0270): the management API
 * lists and shows them beside the audiences it defined.
 */
export class CreatedAudiencesReadModel1763712098000 implements MigrationInterface {
  name = 'CreatedAudiencesReadModel1763712098000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_created_audiences (
        environment  text NOT NULL,
        audience_key text NOT NULL,
        created_at   timestamptz NOT NULL,
        PRIMARY KEY (environment, audience_key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_created_audiences');
  }
}
