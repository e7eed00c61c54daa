import { MigrationInterface, QueryRunner } from 'typeorm';

export class SigningKeysReadModel1763712000110 implements MigrationInterface {
  name = 'SigningKeysReadModel1763712000110';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_environments ADD COLUMN enhanced_security_mode boolean NOT NULL DEFAULT false');
    await q.query(`
      CREATE TABLE rm_signing_keys (
        id          uuid PRIMARY KEY,
        environment text NOT NULL,
        algorithm   text NOT NULL,
        public_key  text NOT NULL,
        created_at  timestamptz NOT NULL,
        revoked_at  timestamptz
      )`);
    await q.query('CREATE INDEX rm_signing_keys_environment_idx ON rm_signing_keys (environment, created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_signing_keys');
    await q.query('ALTER TABLE rm_environments DROP COLUMN enhanced_security_mode');
  }
}
