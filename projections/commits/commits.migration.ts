import { MigrationInterface, QueryRunner } from 'typeorm';

export class CommitsReadModel1763712002200 implements MigrationInterface {
  name = 'CommitsReadModel1763712002200';

  async up(q: QueryRunner): Promise<void> {
    // A commit is listed in the environment it was made in and in each one it was promoted into.
    await q.query(`
      CREATE TABLE rm_commits (
        environment   text NOT NULL,
        id            uuid NOT NULL,
        origin        boolean NOT NULL,
        resource_type text NOT NULL,
        identifier    text NOT NULL,
        sha           text NOT NULL,
        message       text,
        author        jsonb NOT NULL,
        created_at    timestamptz NOT NULL,
        promoted_at   timestamptz,
        PRIMARY KEY (environment, id)
      )`);
    await q.query('CREATE INDEX rm_commits_listing_idx ON rm_commits (environment, created_at DESC, id DESC)');
    await q.query('CREATE INDEX rm_commits_id_idx ON rm_commits (id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_commits');
  }
}
