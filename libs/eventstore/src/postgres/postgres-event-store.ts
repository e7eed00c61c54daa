import { Client, Pool, PoolClient } from 'pg';
import {
  AppendResult,
  DuplicateEventIdError,
  EventMetadata,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  LogFilter,
  LogPosition,
  ReadAllOptions,
  ReadAllPage,
  ReadStreamOptions,
  RecordedEvent,
  START,
  StreamAppend,
  WrongExpectedRevisionError,
} from '../event-store';
import { decodePosition, encodePosition } from '../position';
import { Wakeups } from '../wakeups';
import { ensureEventStoreSchema } from './schema';

const NOTIFY_CHANNEL = 'es_appended';
const UNIQUE_VIOLATION = '23505';
/** How many log rows a filtered read looks at before it returns what it found. */
const SCAN_WINDOW = 5000;

export interface PostgresEventStoreOptions {
  pool: Pool;
  /** Connection string for the LISTEN connection; omit to rely on in-process wake-ups only. */
  listenConnectionString?: string;
  /** Run the schema DDL on start (default true). */
  ensureSchema?: boolean;
}

interface EventRow {
  global_position: string;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_revision: string;
  event_type: string;
  data: unknown;
  metadata: EventMetadata;
  created_at: Date;
}

const EVENT_COLUMNS = `e.global_position, e.transaction_id::text AS transaction_id, e.event_id, e.stream_id,
  e.stream_revision, e.event_type, e.data, e.metadata, e.created_at`;

function toRecorded(row: EventRow): RecordedEvent {
  const globalPosition = BigInt(row.global_position);
  return {
    id: row.event_id,
    type: row.event_type,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    globalPosition,
    position: encodePosition(BigInt(row.transaction_id), globalPosition),
    data: row.data,
    metadata: row.metadata,
    createdAt: row.created_at,
  };
}

function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private readonly pool: Pool;
  private readonly wakeups = new Wakeups();
  private listener?: Client;
  private closed = false;
  private notifyPending = false;

  private constructor(private readonly options: PostgresEventStoreOptions) {
    this.pool = options.pool;
  }

  static async create(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    const store = new PostgresEventStore(options);
    if (options.ensureSchema !== false) await ensureEventStoreSchema(options.pool);
    if (options.listenConnectionString) await store.startListening(options.listenConnectionString);
    return store;
  }

  private async startListening(connectionString: string): Promise<void> {
    const client = new Client({ connectionString });
    client.on('notification', () => this.wakeups.notify());
    client.on('error', () => {
      // A lost LISTEN connection only costs latency: subscribers keep polling. Reconnect.
      this.listener = undefined;
      if (!this.closed) setTimeout(() => void this.startListening(connectionString).catch(() => undefined), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    this.listener = client;
  }

  readonly atomicMultiStreamAppend = true;

  async append(streamId: string, events: readonly EventToAppend[], options: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    const [result] = await this.appendMany([{ streamId, events, expectedRevision: options.expectedRevision }]);
    return result;
  }

  async appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0) return [];
    if (appends.some((a) => a.events.length === 0)) throw new Error('append needs at least one event per stream');
    if (new Set(appends.map((a) => a.streamId)).size !== appends.length) throw new Error('appendMany takes each stream once');
    const client = await this.pool.connect();
    try {
      try {
        await client.query('BEGIN');
        // Every append locks its streams before its first write, in one global order, so a
        // transaction gets its xid only after every earlier writer of those streams committed:
        // xid order then agrees with each stream's own order (see ADR 2).
        await client.query(
          `SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(s, 0) AS h FROM unnest($1::text[]) s ORDER BY h) locks`,
          [appends.map((a) => a.streamId)],
        );
        const rows: { id: string; stream: string; revision: number; type: string; data: string; metadata: string }[] = [];
        const revisions: number[] = [];
        for (const a of appends) {
          const revision = await this.advanceStream(client, a.streamId, a.expectedRevision ?? 'any', a.events.length);
          revisions.push(revision);
          a.events.forEach((e, i) =>
            rows.push({ id: e.id, stream: a.streamId, revision: revision - a.events.length + 1 + i, type: e.type, data: JSON.stringify(e.data), metadata: JSON.stringify(e.metadata) }),
          );
        }
        const inserted = await client.query<{ global_position: string; transaction_id: string; stream_id: string }>(
          `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, data, metadata)
           SELECT id, stream, revision, type, data, metadata
           FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[], $5::jsonb[], $6::jsonb[]) WITH ORDINALITY
             AS t(id, stream, revision, type, data, metadata, ord)
           ORDER BY ord
           RETURNING global_position, transaction_id::text AS transaction_id, stream_id`,
          [rows.map((r) => r.id), rows.map((r) => r.stream), rows.map((r) => r.revision), rows.map((r) => r.type), rows.map((r) => r.data), rows.map((r) => r.metadata)],
        );
        await client.query('COMMIT');
        this.wakeups.notify();
        this.notifyOthers();
        return appends.map((a, i) => {
          const last = inserted.rows
            .filter((r) => r.stream_id === a.streamId)
            .reduce((x, y) => (BigInt(x.global_position) > BigInt(y.global_position) ? x : y));
          return {
            streamId: a.streamId,
            nextExpectedRevision: revisions[i],
            globalPosition: BigInt(last.global_position),
            position: encodePosition(BigInt(last.transaction_id), BigInt(last.global_position)),
          };
        });
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        // The same events were appended before (a retry, or a concurrent twin that won the
        // race): answer as the first append did. Checked only on failure, off the hot path.
        if ((error as { code?: string }).code === UNIQUE_VIOLATION || error instanceof WrongExpectedRevisionError) {
          const replayed = await this.findAppended(client, appends);
          if (replayed) return replayed;
        }
        throw error;
      }
    } finally {
      client.release();
    }
  }

  /**
   * Wakes readers in other processes. Sent after the commit, at most once per few milliseconds:
   * a NOTIFY inside every append transaction would serialise commits on the notification queue.
   * It is only a hint; readers poll anyway.
   */
  private notifyOthers(): void {
    if (!this.options.listenConnectionString || this.notifyPending) return;
    this.notifyPending = true;
    setTimeout(() => {
      this.notifyPending = false;
      if (!this.closed) void this.pool.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', '')`).catch(() => undefined);
    }, 3);
  }

  /** Idempotency: when every id is already in its stream, return where they landed. */
  private async findAppended(client: PoolClient, appends: readonly StreamAppend[]): Promise<AppendResult[] | undefined> {
    const ids = appends.flatMap((a) => a.events.map((e) => e.id));
    const { rows } = await client.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM es_events e WHERE e.event_id = ANY($1::uuid[]) ORDER BY e.global_position`, [ids]);
    if (rows.length === 0) return undefined;
    const byId = new Map(rows.map((r) => [r.event_id, r]));
    const complete = appends.every((a) => a.events.every((e) => byId.get(e.id)?.stream_id === a.streamId));
    if (!complete) throw new DuplicateEventIdError(rows.map((r) => r.event_id));
    const results: AppendResult[] = [];
    for (const a of appends) {
      const last = toRecorded(byId.get(a.events[a.events.length - 1].id)!);
      const current = await client.query<{ revision: string }>('SELECT revision FROM es_streams WHERE stream_id = $1', [a.streamId]);
      results.push({ streamId: a.streamId, nextExpectedRevision: Number(current.rows[0]?.revision ?? last.revision), globalPosition: last.globalPosition, position: last.position });
    }
    return results;
  }

  private async advanceStream(client: PoolClient, streamId: string, expected: ExpectedRevision, count: number): Promise<number> {
    const actual = async (): Promise<number | 'no_stream'> => {
      const { rows } = await client.query<{ revision: string }>('SELECT revision FROM es_streams WHERE stream_id = $1', [streamId]);
      return rows[0] ? Number(rows[0].revision) : 'no_stream';
    };
    let result;
    if (expected === 'any') {
      result = await client.query<{ revision: string }>(
        `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2 - 1)
         ON CONFLICT (stream_id) DO UPDATE SET revision = es_streams.revision + $2, updated_at = now()
         RETURNING revision`,
        [streamId, count],
      );
    } else if (expected === 'no_stream') {
      result = await client.query<{ revision: string }>(
        `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2 - 1) ON CONFLICT (stream_id) DO NOTHING RETURNING revision`,
        [streamId, count],
      );
    } else if (expected === 'stream_exists') {
      result = await client.query<{ revision: string }>(
        `UPDATE es_streams SET revision = revision + $2, updated_at = now() WHERE stream_id = $1 RETURNING revision`,
        [streamId, count],
      );
    } else {
      result = await client.query<{ revision: string }>(
        `UPDATE es_streams SET revision = revision + $2, updated_at = now() WHERE stream_id = $1 AND revision = $3 RETURNING revision`,
        [streamId, count, expected],
      );
    }
    if (result.rows.length === 0) throw new WrongExpectedRevisionError(streamId, expected, await actual());
    return Number(result.rows[0].revision);
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const limit = options.maxCount ?? 1_000_000;
    const params: unknown[] = [streamId, limit];
    let bound = '';
    if (options.fromRevision !== undefined) {
      params.push(options.fromRevision);
      bound = backwards ? 'AND e.stream_revision <= $3' : 'AND e.stream_revision >= $3';
    }
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events e WHERE e.stream_id = $1 ${bound}
       ORDER BY e.stream_revision ${backwards ? 'DESC' : 'ASC'} LIMIT $2`,
      params,
    );
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<ReadAllPage> {
    const after = options.after ?? START;
    const { major, minor } = decodePosition(after);
    const maxCount = options.maxCount ?? 1000;
    const filter = options.filter;
    const filtered = !!(filter?.eventTypes?.length || filter?.streamPrefixes?.length);
    // Only transactions older than the oldest one still running are read, so nothing that
    // commits later can land behind a position a reader has already passed.
    const visible = `(e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint)
      AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;
    if (!filtered) {
      const { rows } = await this.pool.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM es_events e WHERE ${visible}
         ORDER BY e.transaction_id, e.global_position LIMIT $3`,
        [major.toString(), minor.toString(), maxCount],
      );
      const events = rows.map(toRecorded);
      return { events, scannedTo: events.length ? events[events.length - 1].position : after };
    }
    const { clause, params } = filterClause(filter!, 5);
    const { rows } = await this.pool.query<EventRow & { bound_tx: string; bound_pos: string; matched: boolean }>(
      `WITH win AS (
         SELECT e.transaction_id, e.global_position FROM es_events e WHERE ${visible}
         ORDER BY e.transaction_id, e.global_position LIMIT $3
       ), bound AS (
         SELECT transaction_id, global_position FROM win ORDER BY transaction_id DESC, global_position DESC LIMIT 1
       )
       SELECT b.transaction_id::text AS bound_tx, b.global_position AS bound_pos, m.*, m.event_id IS NOT NULL AS matched
       FROM bound b LEFT JOIN LATERAL (
         SELECT ${EVENT_COLUMNS} FROM win w JOIN es_events e ON e.global_position = w.global_position
         WHERE ${clause} ORDER BY w.transaction_id, w.global_position LIMIT $4
       ) m ON true`,
      [major.toString(), minor.toString(), SCAN_WINDOW, maxCount, ...params],
    );
    if (rows.length === 0) return { events: [], scannedTo: after };
    const events = rows.filter((r) => r.matched).map(toRecorded);
    const windowEnd = encodePosition(BigInt(rows[0].bound_tx), BigInt(rows[0].bound_pos));
    const scannedTo = events.length === maxCount ? events[events.length - 1].position : windowEnd;
    return { events, scannedTo };
  }

  async headPosition(): Promise<LogPosition> {
    const { rows } = await this.pool.query<{ transaction_id: string; global_position: string }>(
      `SELECT e.transaction_id::text AS transaction_id, e.global_position FROM es_events e
       WHERE e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
    );
    return rows[0] ? encodePosition(BigInt(rows[0].transaction_id), BigInt(rows[0].global_position)) : START;
  }

  onAppended(listener: () => void): () => void {
    return this.wakeups.listen(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.end().catch(() => undefined);
  }
}

function filterClause(filter: LogFilter, firstParam: number): { clause: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filter.eventTypes?.length) {
    params.push(filter.eventTypes);
    parts.push(`e.event_type = ANY($${firstParam + params.length - 1}::text[])`);
  }
  if (filter.streamPrefixes?.length) {
    params.push(filter.streamPrefixes.map(likePrefix));
    parts.push(`e.stream_id LIKE ANY($${firstParam + params.length - 1}::text[])`);
  }
  return { clause: parts.join(' AND '), params };
}
