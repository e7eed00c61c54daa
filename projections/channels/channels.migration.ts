import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChannelsReadModel1763712000300 implements MigrationInterface {
  name = 'ChannelsReadModel1763712000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_channels (
        id                   uuid PRIMARY KEY,
        key                  text NOT NULL UNIQUE,
        name                 text NOT NULL,
        type                 text NOT NULL,
        provider             text NOT NULL,
        description          text,
        environment_settings jsonb NOT NULL DEFAULT '{}',
        created_at           timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        archived_at          timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_channels');
  }
}
