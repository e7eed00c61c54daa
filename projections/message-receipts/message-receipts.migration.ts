import { MigrationInterface, QueryRunner } from 'typeorm';

export class MessageProviderIdsReadModel1763712022200 implements MigrationInterface {
  name = 'MessageProviderIdsReadModel1763712022200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_message_provider_ids (
        environment         text NOT NULL,
        provider_message_id text NOT NULL,
        message_id          uuid NOT NULL,
        PRIMARY KEY (environment, provider_message_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_message_provider_ids');
  }
}
