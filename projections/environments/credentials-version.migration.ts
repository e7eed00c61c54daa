import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row: the log position of the last credential change the environments projection applied.
 * Authentication reads it with every key lookup; a cached user-token policy is used only while
 * it is unchanged (ADR 0136). It starts empty, and the next change sets it.
 */
export class CredentialsVersion1763712013100 implements MigrationInterface {
  name = 'CredentialsVersion1763712013100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE rm_credentials_version (id smallint PRIMARY KEY CHECK (id = 1), position text NOT NULL)`);
    await q.query(`INSERT INTO rm_credentials_version (id, position) VALUES (1, '')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_credentials_version');
  }
}
