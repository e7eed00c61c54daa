import { createHash } from 'node:crypto';
import { Pool, PoolClient } from 'pg';

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
-- Each statement on es_events below runs only when what it makes is missing: CREATE INDEX IF NOT
-- EXISTS and ALTER TABLE ... IF NOT EXISTS lock the table before they look, and a process booting
-- while another builds an index concurrently would queue that lock, and every append behind it,
-- for the whole build (ADR 0272).
DO $do$ BEGIN
  IF to_regclass('es_events_log_order_idx') IS NULL THEN
    CREATE INDEX es_events_log_order_idx ON es_events (transaction_id, global_position);
  END IF;
  -- Where a time range lies in the log (replays, exports and log reads by time, ADR 0241): a BRIN
  -- index, a few summary tuples per 32 pages (rows are appended in time order), nothing per row.
  IF to_regclass('es_events_created_at_brin') IS NULL THEN
    CREATE INDEX es_events_created_at_brin ON es_events USING brin (created_at) WITH (pages_per_range = 32);
  END IF;
  -- Tamper evidence (ADR 0176): each event's hash covers its content and the hash of the event
  -- before it in its stream. Appends to one stream are already serialised by its advisory lock, so
  -- the chain costs no extra lock. Events written before the chain have none.
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'es_events'::regclass AND attname = 'hash' AND NOT attisdropped) THEN
    ALTER TABLE es_events ADD COLUMN hash bytea;
  END IF;
END $do$;
CREATE TABLE IF NOT EXISTS es_chain_checkpoints (
  stream_id  text PRIMARY KEY,
  revision   bigint NOT NULL,
  hash       bytea NOT NULL,
  checked_at timestamptz NOT NULL DEFAULT now()
);

-- What an event's hash covers, in one unambiguous text (a JSON array); created_at as epoch
-- microseconds so the text does not depend on the session's time zone.
CREATE OR REPLACE FUNCTION es_event_hash(p_prev bytea, p_id uuid, p_stream text, p_revision bigint, p_type text,
  p_data jsonb, p_metadata jsonb, p_created_at timestamptz) RETURNS bytea
LANGUAGE sql STABLE AS $fn$
  SELECT sha256(coalesce(p_prev, ''::bytea) || convert_to(jsonb_build_array(p_id, p_stream, p_revision, p_type, p_data, p_metadata,
    (extract(epoch FROM p_created_at) * 1000000)::bigint)::text, 'UTF8'))
$fn$;

-- One imported event (ADR 0153): the next revision of its stream, at its recorded global position
-- and time, its hash chained to the stream's previous event as es_append chains it.
CREATE OR REPLACE FUNCTION es_import_row(p_pos bigint, p_id uuid, p_stream text, p_revision bigint, p_type text,
  p_data jsonb, p_metadata jsonb, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  current bigint;
  prev bytea;
BEGIN
  SELECT revision INTO current FROM es_streams WHERE stream_id = p_stream FOR UPDATE;
  IF coalesce(current, -1) <> p_revision - 1 THEN
    RAISE EXCEPTION 'import: % revision % does not follow revision %', p_stream, p_revision, coalesce(current, -1);
  END IF;
  SELECT hash INTO prev FROM es_events WHERE stream_id = p_stream AND stream_revision = p_revision - 1;
  INSERT INTO es_events (global_position, event_id, stream_id, stream_revision, event_type, data, metadata, created_at, hash)
  VALUES (p_pos, p_id, p_stream, p_revision, p_type, p_data, p_metadata, p_at,
    es_event_hash(prev, p_id, p_stream, p_revision, p_type, p_data, p_metadata, p_at));
  INSERT INTO es_streams (stream_id, revision, updated_at) VALUES (p_stream, p_revision, p_at)
  ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at;
END
$fn$;

-- Readers return rows of transactions older than this bound: every transaction of this database
-- that was still running in the reader's snapshot is at or above it, so nothing can commit later
-- below a position a reader has passed. pg_snapshot_xmin alone would be the bound of the whole
-- server (transaction ids are server-wide): a write transaction open in another database would
-- hold back every reader here. Transactions the snapshot saw running are left out only when
-- pg_stat_activity shows them in another database now; one that has ended since, or whose
-- database is not known, still bounds (it may be ours). Same snapshot as the calling statement.
CREATE OR REPLACE FUNCTION es_visible_bound() RETURNS xid8
LANGUAGE sql STABLE AS $fn$
  WITH snap AS (SELECT pg_current_snapshot() AS s),
  elsewhere AS (
    SELECT a.backend_xid::text::bigint AS xid32 FROM pg_stat_activity a
    WHERE a.backend_xid IS NOT NULL AND a.datid IS DISTINCT FROM (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
  )
  SELECT coalesce(
    (SELECT min(x) FROM snap, pg_snapshot_xip(snap.s) x WHERE (x::text::numeric % 4294967296)::bigint NOT IN (SELECT xid32 FROM elsewhere)),
    (SELECT pg_snapshot_xmax(snap.s) FROM snap)
  )
$fn$;

-- One round trip per append, however many streams: lock the streams (in one global order, before
-- any write, so the transaction's xid comes after every earlier writer of them), check and move
-- each stream's revision, insert the events. A failed check or an event id already stored is
-- reported as a single row (o_tx 'conflict' / 'duplicate') after rolling the attempt back: an
-- error raised to the client would also do, but the embedded server drops the connection on it.
-- The inserted rows are collected in variables and returned only once the block has succeeded:
-- rows handed to RETURN QUERY stay in the answer even when the block is rolled back, so an
-- append that failed on its second event would otherwise report its first one as written.
CREATE OR REPLACE FUNCTION es_append(
  p_streams text[], p_expected text[], p_counts int[],
  p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[]
) RETURNS TABLE (o_stream text, o_revision bigint, o_position bigint, o_tx text)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  i int;
  j int;
  rev bigint;
  actual bigint;
  failed_stream text;
  ev_streams text[] := '{}';
  ev_revisions bigint[] := '{}';
  ev_hashes bytea[] := '{}';
  k int := 0;
  prev bytea;
  v_at timestamptz := now();
  r_streams text[];
  r_revisions bigint[];
  r_positions bigint[];
  r_txs text[];
BEGIN
  PERFORM pg_advisory_xact_lock(l.h) FROM (SELECT DISTINCT hashtextextended(s, 0) AS h FROM unnest(p_streams) s ORDER BY 1) l;
  BEGIN
    FOR i IN 1 .. array_length(p_streams, 1) LOOP
      rev := NULL;
      IF p_expected[i] = 'any' THEN
        INSERT INTO es_streams AS st (stream_id, revision) VALUES (p_streams[i], p_counts[i] - 1)
          ON CONFLICT (stream_id) DO UPDATE SET revision = st.revision + p_counts[i], updated_at = now()
          RETURNING st.revision INTO rev;
      ELSIF p_expected[i] = 'no_stream' THEN
        INSERT INTO es_streams AS st (stream_id, revision) VALUES (p_streams[i], p_counts[i] - 1)
          ON CONFLICT (stream_id) DO NOTHING RETURNING st.revision INTO rev;
      ELSIF p_expected[i] = 'stream_exists' THEN
        UPDATE es_streams st SET revision = st.revision + p_counts[i], updated_at = now() WHERE st.stream_id = p_streams[i] RETURNING st.revision INTO rev;
      ELSE
        UPDATE es_streams st SET revision = st.revision + p_counts[i], updated_at = now()
          WHERE st.stream_id = p_streams[i] AND st.revision = p_expected[i]::bigint RETURNING st.revision INTO rev;
      END IF;
      IF rev IS NULL THEN
        failed_stream := p_streams[i];
        RAISE EXCEPTION USING ERRCODE = 'P0409';
      END IF;
      prev := NULL;
      IF rev - p_counts[i] >= 0 THEN
        SELECT e.hash INTO prev FROM es_events e WHERE e.stream_id = p_streams[i] AND e.stream_revision = rev - p_counts[i];
      END IF;
      FOR j IN 1 .. p_counts[i] LOOP
        k := k + 1;
        ev_streams := ev_streams || p_streams[i];
        ev_revisions := ev_revisions || (rev - p_counts[i] + j);
        prev := es_event_hash(prev, p_ids[k], p_streams[i], rev - p_counts[i] + j, p_types[k], p_data[k], p_metadata[k], v_at);
        ev_hashes := ev_hashes || prev;
      END LOOP;
    END LOOP;
    WITH inserted AS (
      INSERT INTO es_events AS e (event_id, stream_id, stream_revision, event_type, data, metadata, created_at, hash)
      SELECT t.id, t.stream, t.revision, t.type, t.data, t.metadata, v_at, t.hash
      FROM unnest(p_ids, ev_streams, ev_revisions, p_types, p_data, p_metadata, ev_hashes)
        WITH ORDINALITY AS t(id, stream, revision, type, data, metadata, hash, ord)
      ORDER BY t.ord
      RETURNING e.stream_id, e.stream_revision, e.global_position, e.transaction_id
    )
    SELECT array_agg(x.stream_id ORDER BY x.global_position), array_agg(x.stream_revision ORDER BY x.global_position),
           array_agg(x.global_position ORDER BY x.global_position), array_agg(x.transaction_id::text ORDER BY x.global_position)
      INTO r_streams, r_revisions, r_positions, r_txs
      FROM inserted x;
  EXCEPTION
    WHEN SQLSTATE 'P0409' THEN
      SELECT st.revision INTO actual FROM es_streams st WHERE st.stream_id = failed_stream;
      RETURN QUERY SELECT failed_stream, actual, NULL::bigint, 'conflict'::text;
      RETURN;
    WHEN unique_violation THEN
      RETURN QUERY SELECT NULL::text, NULL::bigint, NULL::bigint, 'duplicate'::text;
      RETURN;
  END;
  RETURN QUERY SELECT * FROM unnest(r_streams, r_revisions, r_positions, r_txs);
END
$fn$;
`;

/** A text value as a SQL literal (standard quoting; the value is ours, not a request's). */
export const sqlLiteral = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** SQL for an event row's log position as `encodePosition` writes it (32 hex digits). */
export const encodedPositionSql = (alias: string): string =>
  `lpad(to_hex(${alias}.transaction_id::text::bigint), 16, '0') || lpad(to_hex(${alias}.global_position), 16, '0')`;

const HEAD_INDEX_PREFIX = 'es_events_type_heads_';
/** Serialises the DDL of processes booting at once. */
const DDL_LOCK = 727274001;
/** Held by the one process building the heads' index concurrently (taken with a try, never waited on). */
const HEAD_BUILD_LOCK = 727274002;
/** A log with more events than this gets the heads' index built concurrently (ADR 0272). */
export const CONCURRENT_HEAD_INDEX_FROM = 100_000;

/**
 * The partial index behind `typeHeadSql` (ADR 0258): (type, log order) over the events of the
 * given types only, so appends of other events do not write it. Named after its types; an index
 * of this kind over other types (an earlier version's list) is dropped.
 */
function headIndex(types: readonly string[]): { name: string; drop: string; create: (concurrently: boolean) => string } {
  const sorted = [...new Set(types)].sort();
  const name = HEAD_INDEX_PREFIX + createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 12);
  const drop = `DO $do$ DECLARE r record; BEGIN
    FOR r IN SELECT indexname FROM pg_indexes WHERE tablename = 'es_events' AND indexname LIKE '${HEAD_INDEX_PREFIX}%' AND indexname <> '${name}' LOOP
      EXECUTE format('DROP INDEX IF EXISTS %I', r.indexname);
    END LOOP; END $do$;`;
  const create = (concurrently: boolean) =>
    `CREATE INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF NOT EXISTS ${name} ON es_events (event_type, transaction_id, global_position)
  WHERE event_type IN (${sorted.map(sqlLiteral).join(', ')})`;
  return { name, drop, create };
}

type IndexState = 'valid' | 'invalid' | 'absent';

async function indexState(client: PoolClient, name: string): Promise<IndexState> {
  const { rows } = await client.query<{ valid: boolean }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  return rows.length === 0 ? 'absent' : rows[0].valid ? 'valid' : 'invalid';
}

/** Whether the log holds more than `threshold` events (reads at most that many plus one index entries). */
async function logLongerThan(client: PoolClient, threshold: number): Promise<boolean> {
  const { rows } = await client.query<{ longer: boolean }>('SELECT count(*) > $1 AS longer FROM (SELECT 1 FROM es_events LIMIT $1 + 1) e', [
    threshold,
  ]);
  return rows[0].longer;
}

export interface SchemaOptions {
  /** Build the heads' index concurrently on a log with more events than this; default {@link CONCURRENT_HEAD_INDEX_FROM}. */
  concurrentHeadIndexFrom?: number;
  /** How long a process waits between looks at another process's concurrent build; default 200 ms. */
  buildPollMs?: number;
}

/**
 * The log's tables, functions and the heads' index. On a short log the index is built with a
 * plain CREATE INDEX under the DDL lock (it holds appends back for as long as it reads the log,
 * a moment there). On a long one, the first version with a new list of head types would hold
 * every append back for the whole build, so it is built CONCURRENTLY (ADR 0272): after the DDL
 * lock is released (a build waits for every transaction with an older snapshot, and a process
 * queued on that lock would be one), by the one process that gets the build lock with a try; the
 * others look every `buildPollMs` until it is valid. A build that failed half-way leaves an
 * invalid index behind: the next builder drops it and builds again. Every process returns once
 * the index is valid, as with the plain build.
 */
export async function ensureEventStoreSchema(pool: Pool, headTypes: readonly string[] = [], options: SchemaOptions = {}): Promise<void> {
  const client = await pool.connect();
  try {
    const index = headTypes.length ? headIndex(headTypes) : undefined;
    let concurrently = false;
    // Several processes may boot at once; serialise the DDL.
    await client.query('SELECT pg_advisory_lock($1)', [DDL_LOCK]);
    try {
      await client.query(DDL);
      // A store told of no types (a tool, a test) leaves the index of the service's list alone.
      if (index) {
        await client.query(index.drop);
        const state = await indexState(client, index.name);
        // Absent from a short log: a plain build, a moment. Absent from a long one, or a failed build's leftover: concurrently.
        if (state === 'absent' && !(await logLongerThan(client, options.concurrentHeadIndexFrom ?? CONCURRENT_HEAD_INDEX_FROM)))
          await client.query(index.create(false));
        else concurrently = state !== 'valid';
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [DDL_LOCK]);
    }
    if (index && concurrently) await buildConcurrently(client, index, options.buildPollMs ?? 200);
  } finally {
    client.release();
  }
}

async function buildConcurrently(client: PoolClient, index: ReturnType<typeof headIndex>, pollMs: number): Promise<void> {
  for (;;) {
    if ((await indexState(client, index.name)) === 'valid') return;
    const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [HEAD_BUILD_LOCK]);
    if (!rows[0].got) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      continue;
    }
    try {
      const state = await indexState(client, index.name);
      if (state === 'valid') return;
      // Every builder holds the build lock: an invalid index here is a failed build's leftover.
      if (state === 'invalid') await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index.name}`);
      await client.query(index.create(true));
      return;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [HEAD_BUILD_LOCK]);
    }
  }
}
