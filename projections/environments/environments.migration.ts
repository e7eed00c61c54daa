import { MigrationInterface, QueryRunner } from 'typeorm';

export class EnvironmentsReadModel1763712000100 implements MigrationInterface {
  name = 'EnvironmentsReadModel1763712000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_environments (
        slug       text PRIMARY KEY,
        name       text NOT NULL,
        sort_order integer NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE rm_api_keys (
        key_hash    text PRIMARY KEY,
        key_id      uuid NOT NULL UNIQUE,
        environment text NOT NULL,
        kind        text NOT NULL,
        hint        text NOT NULL,
        issued_at   timestamptz NOT NULL,
        revoked_at  timestamptz
      )`);
    await q.query('CREATE INDEX rm_api_keys_environment_idx ON rm_api_keys (environment)');
    await q.query(`
      CREATE TABLE rm_service_tokens (
        token_hash text PRIMARY KEY,
        token_id   uuid NOT NULL UNIQUE,
        name       text NOT NULL,
        hint       text NOT NULL,
        issued_at  timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_service_tokens');
    await q.query('DROP TABLE rm_api_keys');
    await q.query('DROP TABLE rm_environments');
  }
}
