import { MigrationInterface, QueryRunner } from 'typeorm';

export class PreferencesReadModel1763712001200 implements MigrationInterface {
  name = 'PreferencesReadModel1763712001200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_preference_sets (
        environment          text NOT NULL,
        recipient_type       text NOT NULL,
        recipient_collection text NOT NULL,
        recipient_id         text NOT NULL,
        set_id               text NOT NULL,
        preferences          jsonb NOT NULL,
        updated_at           timestamptz NOT NULL,
        PRIMARY KEY (environment, recipient_type, recipient_collection, recipient_id, set_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_preference_sets');
  }
}
