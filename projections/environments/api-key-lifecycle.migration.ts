import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API key management (ADR 0152): a key's name, the key that replaced it and when it stops working
 * (a rotation's overlap), and when it was last used. Usage is not an event (one per request would
 * flood the log): `api_key_usage` is written by authentication, outside the projection, so a
 * rebuild neither compares nor clears it.
 */
export class ApiKeyLifecycle1763712019752 implements MigrationInterface {
  name = 'ApiKeyLifecycle1763712019752';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rm_api_keys ADD COLUMN name text, ADD COLUMN replaced_by uuid, ADD COLUMN expires_at timestamptz`);
    await q.query(`CREATE TABLE api_key_usage (key_id uuid PRIMARY KEY, last_used_at timestamptz NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE api_key_usage');
    await q.query('ALTER TABLE rm_api_keys DROP COLUMN name, DROP COLUMN replaced_by, DROP COLUMN expires_at');
  }
}
