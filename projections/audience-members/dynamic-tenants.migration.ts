import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tenant side of dynamic audiences (ADR 0202), kept by the tenants projection: the
 * definitions whose segments have conditions on the tenant, and per such segment the tenants
 * ('' for none) for which those conditions hold, as windows of time like the users' side.
 */
export class DynamicAudienceTenants1763712021000 implements MigrationInterface {
  name = 'DynamicAudienceTenants1763712021000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_dynamic_audience_tenant_rules (
        environment     text NOT NULL,
        audience_key    text NOT NULL,
        segments        jsonb NOT NULL,
        tenant_segments integer[] NOT NULL,
        PRIMARY KEY (environment, audience_key)
      )`);
    await q.query(`
      CREATE TABLE rm_dynamic_audience_tenants (
        environment  text NOT NULL,
        audience_key text NOT NULL,
        segment      integer NOT NULL,
        tenant_id    text NOT NULL,
        member_from  timestamptz,
        member_until timestamptz,
        PRIMARY KEY (environment, audience_key, segment, tenant_id)
      )`);
    await q.query('CREATE INDEX rm_dynamic_audience_tenants_tenant_idx ON rm_dynamic_audience_tenants (environment, tenant_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_dynamic_audience_tenants');
    await q.query('DROP TABLE rm_dynamic_audience_tenant_rules');
  }
}
