import { MigrationInterface, QueryRunner } from 'typeorm';

export class ConfigResourcesReadModel1763712002100 implements MigrationInterface {
  name = 'ConfigResourcesReadModel1763712002100';

  async up(q: QueryRunner): Promise<void> {
    // One row per versioned resource per environment: its latest (draft) version and the committed one.
    await q.query(`
      CREATE TABLE rm_config_resources (
        environment   text NOT NULL,
        resource_type text NOT NULL,
        identifier    text NOT NULL,
        draft         jsonb NOT NULL,
        draft_sha     text NOT NULL,
        valid         boolean NOT NULL,
        errors        jsonb NOT NULL DEFAULT '[]',
        committed     jsonb,
        committed_sha text,
        active        boolean NOT NULL DEFAULT false,
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        PRIMARY KEY (environment, resource_type, identifier)
      )`);
    await q.query(
      `CREATE INDEX rm_config_resources_uncommitted_idx ON rm_config_resources (environment, resource_type) WHERE committed_sha IS DISTINCT FROM draft_sha`,
    );
    // Every version ever upserted or promoted, by content hash: what a commit fixes and a promotion carries.
    await q.query(`
      CREATE TABLE rm_config_versions (
        resource_type text NOT NULL,
        identifier    text NOT NULL,
        sha           text NOT NULL,
        content       jsonb NOT NULL,
        valid         boolean NOT NULL,
        errors        jsonb NOT NULL DEFAULT '[]',
        PRIMARY KEY (resource_type, identifier, sha)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_config_versions');
    await q.query('DROP TABLE rm_config_resources');
  }
}
