import { MigrationInterface, QueryRunner } from 'typeorm';

export class AudienceMembersReadModel1763712001600 implements MigrationInterface {
  name = 'AudienceMembersReadModel1763712001600';

  async up(q: QueryRunner): Promise<void> {
    // tenant is '' for a member of no tenant, so that it can be part of the key.
    await q.query(`
      CREATE TABLE rm_audience_members (
        environment  text NOT NULL,
        audience_key text NOT NULL,
        user_id      text NOT NULL,
        tenant       text NOT NULL,
        added_at     timestamptz NOT NULL,
        PRIMARY KEY (environment, audience_key, user_id, tenant)
      )`);
    await q.query(
      'CREATE INDEX rm_audience_members_list_idx ON rm_audience_members (environment, audience_key, added_at DESC, user_id, tenant)',
    );
    await q.query('CREATE INDEX rm_audience_members_user_idx ON rm_audience_members (environment, user_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_audience_members');
  }
}
