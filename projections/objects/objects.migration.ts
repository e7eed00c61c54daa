import { MigrationInterface, QueryRunner } from 'typeorm';

export class ObjectsReadModel1763712001000 implements MigrationInterface {
  name = 'ObjectsReadModel1763712001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_objects (
        environment text NOT NULL,
        collection  text NOT NULL,
        id          text NOT NULL,
        properties  jsonb NOT NULL DEFAULT '{}',
        inserted_at timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        PRIMARY KEY (environment, collection, id)
      )`);
    await q.query('CREATE INDEX rm_objects_listing_idx ON rm_objects (environment, collection, inserted_at DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_objects');
  }
}
