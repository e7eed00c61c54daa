import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChannelGroupsReadModel1763712002400 implements MigrationInterface {
  name = 'ChannelGroupsReadModel1763712002400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_channel_groups (
        key           text PRIMARY KEY,
        name          text NOT NULL,
        channel_type  text NOT NULL,
        operator      text NOT NULL,
        visible_in    jsonb NOT NULL,
        channel_rules jsonb NOT NULL,
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        archived_at   timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_channel_groups');
  }
}
