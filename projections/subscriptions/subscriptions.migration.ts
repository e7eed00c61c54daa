import { MigrationInterface, QueryRunner } from 'typeorm';

export class SubscriptionsReadModel1763712001400 implements MigrationInterface {
  name = 'SubscriptionsReadModel1763712001400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_subscriptions (
        environment          text NOT NULL,
        object_collection    text NOT NULL,
        object_id            text NOT NULL,
        recipient_type       text NOT NULL,
        recipient_collection text NOT NULL,
        recipient_id         text NOT NULL,
        properties           jsonb,
        inserted_at          timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        PRIMARY KEY (environment, object_collection, object_id, recipient_type, recipient_collection, recipient_id)
      )`);
    await q.query(
      'CREATE INDEX rm_subscriptions_object_idx ON rm_subscriptions (environment, object_collection, object_id, inserted_at DESC, recipient_type, recipient_collection, recipient_id)',
    );
    await q.query(
      'CREATE INDEX rm_subscriptions_recipient_idx ON rm_subscriptions (environment, recipient_type, recipient_collection, recipient_id, inserted_at DESC, object_collection, object_id)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_subscriptions');
  }
}
