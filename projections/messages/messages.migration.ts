import { MigrationInterface, QueryRunner } from 'typeorm';

export class MessagesReadModel1763712000400 implements MigrationInterface {
  name = 'MessagesReadModel1763712000400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_messages (
        environment          text NOT NULL,
        id                   uuid NOT NULL,
        channel_id           uuid NOT NULL,
        channel_key          text NOT NULL,
        channel_type         text NOT NULL,
        provider             text NOT NULL,
        recipient_type       text NOT NULL,
        recipient_id         text NOT NULL,
        recipient_collection text,
        workflow_key         text NOT NULL,
        workflow_categories  text[] NOT NULL DEFAULT '{}',
        workflow_version     text,
        workflow_run_id      uuid NOT NULL,
        run_id               uuid NOT NULL,
        step_ref             text NOT NULL,
        tenant               text,
        status               text NOT NULL,
        attempts             integer NOT NULL DEFAULT 0,
        seen_at              timestamptz,
        read_at              timestamptz,
        archived_at          timestamptz,
        interacted_at        timestamptz,
        link_clicked_at      timestamptz,
        data                 jsonb,
        content              jsonb NOT NULL,
        actors               jsonb NOT NULL DEFAULT '[]',
        total_activities     integer NOT NULL DEFAULT 1,
        total_actors         integer NOT NULL DEFAULT 0,
        recipient_snapshot   jsonb,
        metadata             jsonb,
        sandbox              boolean NOT NULL DEFAULT false,
        inserted_at          timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    await q.query(
      'CREATE INDEX rm_messages_recipient_idx ON rm_messages (environment, recipient_type, recipient_id, channel_id, inserted_at DESC, id DESC)',
    );
    await q.query('CREATE INDEX rm_messages_listing_idx ON rm_messages (environment, inserted_at DESC, id DESC)');
    await q.query('CREATE INDEX rm_messages_channel_idx ON rm_messages (environment, channel_id, inserted_at DESC)');
    await q.query('CREATE INDEX rm_messages_run_idx ON rm_messages (environment, workflow_run_id)');
    await q.query(`
      CREATE TABLE rm_message_activities (
        environment text NOT NULL,
        message_id  uuid NOT NULL,
        id          text NOT NULL,
        actor       jsonb,
        data        jsonb,
        inserted_at timestamptz NOT NULL,
        PRIMARY KEY (environment, message_id, id)
      )`);
    await q.query(`
      CREATE TABLE rm_message_events (
        environment text NOT NULL,
        id          uuid NOT NULL,
        message_id  uuid NOT NULL,
        type        text NOT NULL,
        data        jsonb,
        inserted_at timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    await q.query('CREATE INDEX rm_message_events_message_idx ON rm_message_events (environment, message_id, inserted_at DESC, id DESC)');
    await q.query(`
      CREATE TABLE rm_message_delivery_logs (
        environment  text NOT NULL,
        id           uuid NOT NULL,
        message_id   uuid NOT NULL,
        attempt      integer NOT NULL,
        service_name text NOT NULL,
        request      jsonb NOT NULL,
        response     jsonb,
        inserted_at  timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    await q.query(
      'CREATE INDEX rm_message_delivery_logs_message_idx ON rm_message_delivery_logs (environment, message_id, inserted_at DESC, id DESC)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_message_delivery_logs');
    await q.query('DROP TABLE rm_message_events');
    await q.query('DROP TABLE rm_message_activities');
    await q.query('DROP TABLE rm_messages');
  }
}
