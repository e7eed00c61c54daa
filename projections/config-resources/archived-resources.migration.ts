import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Archived workflows, layouts and partials (ADR 0225): moved out of rm_config_resources, so that
 * everything reading it (triggers, references, commits, branches) sees them gone, and kept here
 * for the lists that ask for them (`archived=include|only`).
 */
export class ArchivedConfigResources1763712031000 implements MigrationInterface {
  name = 'ArchivedConfigResources1763712031000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_archived_config_resources (
        environment   text NOT NULL,
        resource_type text NOT NULL,
        identifier    text NOT NULL,
        draft         jsonb NOT NULL,
        draft_sha     text NOT NULL,
        valid         boolean NOT NULL,
        errors        jsonb NOT NULL DEFAULT '[]',
        committed     jsonb,
        committed_sha text,
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        archived_at   timestamptz NOT NULL,
        PRIMARY KEY (environment, resource_type, identifier)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_archived_config_resources');
  }
}
