import { Pool } from 'pg';

/**
 * The log's own schema. It belongs to the event store adapter (not to the read-model migrations)
 * so the adapter can be used on its own; every statement is idempotent.
 *
 * transaction_id (xid8) is what makes subscriptions gap-free: a reader only returns rows whose
 * transaction is older than the oldest transaction still running, and orders by
 * (transaction_id, global_position), so a transaction that committed late is never skipped.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS es_streams (
  stream_id   text PRIMARY KEY,
  revision    bigint NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS es_events (
  global_position bigserial PRIMARY KEY,
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id        uuid NOT NULL,
  stream_id       text NOT NULL,
  stream_revision bigint NOT NULL,
  event_type      text NOT NULL,
  data            jsonb NOT NULL,
  metadata        jsonb NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT es_events_event_id_key UNIQUE (event_id),
  CONSTRAINT es_events_stream_revision_key UNIQUE (stream_id, stream_revision)
);
CREATE INDEX IF NOT EXISTS es_events_log_order_idx ON es_events (transaction_id, global_position);
`;

export async function ensureEventStoreSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    // Several processes may boot at once; serialise the DDL.
    await client.query('SELECT pg_advisory_lock(727274001)');
    try {
      await client.query(DDL);
    } finally {
      await client.query('SELECT pg_advisory_unlock(727274001)');
    }
  } finally {
    client.release();
  }
}
