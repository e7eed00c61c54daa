import { MigrationInterface, QueryRunner } from 'typeorm';

export class TenantsReadModel1763712001100 implements MigrationInterface {
  name = 'TenantsReadModel1763712001100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_tenants (
        environment text NOT NULL,
        id          text NOT NULL,
        name        text,
        properties  jsonb NOT NULL DEFAULT '{}',
        settings    jsonb NOT NULL DEFAULT '{"branding": null, "preference_set": null}',
        inserted_at timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    await q.query('CREATE INDEX rm_tenants_listing_idx ON rm_tenants (environment, inserted_at DESC, id DESC)');
    await q.query('CREATE INDEX rm_tenants_name_idx ON rm_tenants (environment, name)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_tenants');
  }
}
