import { MigrationInterface, QueryRunner } from 'typeorm';

export class ItemSchemasReadModel1763712019310 implements MigrationInterface {
  name = 'ItemSchemasReadModel1763712019310';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_item_schemas (
        environment text NOT NULL,
        item_type   text NOT NULL,
        item_id     text NOT NULL DEFAULT '',
        properties  jsonb NOT NULL,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        PRIMARY KEY (environment, item_type, item_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_item_schemas');
  }
}
