import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Feed counters: per user, in-app channel and tenant ('' for none), the messages, unread and
 * unseen ones, apart for archived messages, kept by the messages projection in the transaction
 * that changes the message rows (ADR 0071).
 */
export class FeedCountsReadModel1763712007070 implements MigrationInterface {
  name = 'FeedCountsReadModel1763712007070';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_feed_counts (
        environment     text NOT NULL,
        user_id         text NOT NULL,
        channel_id      uuid NOT NULL,
        tenant          text NOT NULL DEFAULT '',
        total           integer NOT NULL DEFAULT 0,
        unread          integer NOT NULL DEFAULT 0,
        unseen          integer NOT NULL DEFAULT 0,
        archived_total  integer NOT NULL DEFAULT 0,
        archived_unread integer NOT NULL DEFAULT 0,
        archived_unseen integer NOT NULL DEFAULT 0,
        -- Bumped by every change to a message of this feed: readers cache pages under it.
        version         bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (environment, user_id, channel_id, tenant)
      )`);
    // A message's events in the order its stream has them (several share one timestamp).
    await q.query('ALTER TABLE rm_message_events ADD COLUMN revision integer NOT NULL DEFAULT 0');
    await q.query('CREATE INDEX rm_message_events_revision_idx ON rm_message_events (environment, message_id, revision DESC)');
    // Trigger data filters (`data @> {...}`) on listings and feeds.
    await q.query('CREATE INDEX rm_messages_data_idx ON rm_messages USING gin (data jsonb_path_ops)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX rm_messages_data_idx');
    await q.query('DROP INDEX rm_message_events_revision_idx');
    await q.query('ALTER TABLE rm_message_events DROP COLUMN revision');
    await q.query('DROP TABLE rm_feed_counts');
  }
}
