import { MigrationInterface, QueryRunner } from 'typeorm';

export class SuppressionsReadModel1763712022100 implements MigrationInterface {
  name = 'SuppressionsReadModel1763712022100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_suppressions (
        environment text NOT NULL,
        address     text NOT NULL,
        reason      text NOT NULL,
        message_id  uuid,
        source      text,
        detail      text,
        inserted_at timestamptz NOT NULL,
        PRIMARY KEY (environment, address)
      )`);
    await q.query('CREATE INDEX rm_suppressions_listing_idx ON rm_suppressions (environment, inserted_at DESC, address)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_suppressions');
  }
}
