import { MigrationInterface, QueryRunner } from 'typeorm';

export class BulkOperationsReadModel1763712001500 implements MigrationInterface {
  name = 'BulkOperationsReadModel1763712001500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_bulk_operations (
        environment          text NOT NULL,
        id                   uuid NOT NULL,
        name                 text NOT NULL,
        status               text NOT NULL,
        estimated_total_rows integer NOT NULL,
        processed_rows       integer NOT NULL DEFAULT 0,
        success_count        integer NOT NULL DEFAULT 0,
        error_count          integer NOT NULL DEFAULT 0,
        error_items          jsonb NOT NULL DEFAULT '[]',
        inserted_at          timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        started_at           timestamptz,
        completed_at         timestamptz,
        failed_at            timestamptz,
        PRIMARY KEY (environment, id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_bulk_operations');
  }
}
