import { MigrationInterface, QueryRunner } from 'typeorm';

export class SourcesReadModel1763712019500 implements MigrationInterface {
  name = 'SourcesReadModel1763712019500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_sources (
        environment      text NOT NULL,
        key              text NOT NULL,
        name             text NOT NULL,
        custom_image_url text,
        settings         jsonb NOT NULL,
        mappings         jsonb NOT NULL,
        created_at       timestamptz NOT NULL,
        updated_at       timestamptz NOT NULL,
        PRIMARY KEY (environment, key)
      )`);
    await q.query('CREATE INDEX rm_sources_key_idx ON rm_sources (key)');
    await q.query(`
      CREATE TABLE rm_source_logs (
        environment  text NOT NULL,
        id           uuid NOT NULL,
        source_key   text NOT NULL,
        event        text NOT NULL,
        payload      jsonb NOT NULL,
        actions      jsonb NOT NULL,
        results      jsonb,
        inserted_at  timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    await q.query('CREATE INDEX rm_source_logs_list_idx ON rm_source_logs (environment, source_key, inserted_at DESC, id DESC)');
    await q.query('CREATE INDEX rm_source_logs_event_idx ON rm_source_logs (environment, source_key, event, inserted_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_source_logs');
    await q.query('DROP TABLE rm_sources');
  }
}
