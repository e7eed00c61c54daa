import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChannelDataReadModel1763712001300 implements MigrationInterface {
  name = 'ChannelDataReadModel1763712001300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_channel_data (
        environment          text NOT NULL,
        recipient_type       text NOT NULL,
        recipient_collection text NOT NULL,
        recipient_id         text NOT NULL,
        channel_id           text NOT NULL,
        channel_type         text NOT NULL,
        provider             text NOT NULL,
        data                 jsonb NOT NULL,
        updated_at           timestamptz NOT NULL,
        PRIMARY KEY (environment, recipient_type, recipient_collection, recipient_id, channel_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_channel_data');
  }
}
