// The one helper, not the barrel: that loads TypeORM into every file that imports the log store.
import { isDatabaseUnavailable } from '@notify/database/unavailable';
import { Client, Pool } from 'pg';
import { randomUUID } from 'node:crypto';
import { committedRequests } from '../committed-requests';
import {
  AppendResult,
  ChainFinding,
  ChainReport,
  DeletedStream,
  DuplicateEventIdError,
  EventMetadata,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  ImportedEvent,
  LogImporter,
  LogNotEmptyError,
  LogRangeQuery,
  ReplacingImportOptions,
  ImportTransaction,
  ReplacingImportResult,
  LogFilter,
  LogPosition,
  ReadAllOptions,
  ReadAllPage,
  ReadStreamOptions,
  RecordedEvent,
  SealedWith,
  SealingKeyChangedError,
  SealingKeyChecks,
  START,
  StreamAppend,
  TamperEvidentLog,
  WrongExpectedRevisionError,
} from '../event-store';
import { decodePosition, encodePosition } from '../position';
import { Wakeups } from '../wakeups';
import { encodedPositionSql, ensureEventStoreSchema, sqlLiteral } from './schema';

const NOTIFY_CHANNEL = 'es_appended';
/** How long a store that has just started listening waits to hear another process before it stops notifying (ADR 0218). */
const PEER_QUIET_MS = 2000;
const UNIQUE_VIOLATION = '23505';
/** How many log rows a filtered read looks at before it returns what it found. */
const SCAN_WINDOW = 5000;

export interface PostgresEventStoreOptions {
  pool: Pool;
  /** Connection string for the LISTEN connection; omit to rely on in-process wake-ups only. */
  listenConnectionString?: string;
  /** Run the schema DDL on start (default true). */
  ensureSchema?: boolean;
  /**
   * The database holds `erasure_keys` and `erasure_epoch` (ADR 0180): reads return the epoch
   * with their events and appends honour `sealedWith` (ADR 0216). Default false.
   */
  sealingKeyChecks?: boolean;
  /**
   * Event types whose newest position `typeHeadSql` answers with one index probe: a partial index
   * over the events of these types only (ADR 0258). Default none.
   */
  headTypes?: readonly string[];
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
  erasure_epoch?: string | null;
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

/** A connection failure other than never getting one: no pool connection in time, or none could be opened. */
function mayHaveBeenSent(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  const { message, code } = error as { message?: string; code?: string };
  return message !== 'timeout exceeded when trying to connect' && code !== 'ECONNREFUSED' && !(error instanceof AggregateError);
}

function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Grouped appends running at once before the next ones wait and are grouped (ADR 0146): one
 * (ADR 0278). Each statement costs PostgreSQL far more than its share of a group, so the appends
 * that arrive while one runs go out together in the next; a lone append still goes out at once.
 */
const APPENDS_IN_FLIGHT = 1;
/** Streams in one grouped append at most. */
const APPEND_GROUP_MAX = 200;

/** Appends that succeed or fail together (one stream for `append`, several for `appendTogether`). */
interface QueuedAppend {
  requests: readonly StreamAppend[];
  resolve: (results: AppendResult[]) => void;
  reject: (error: unknown) => void;
}

export class PostgresEventStore implements EventStore, TamperEvidentLog, LogImporter, Omit<SealingKeyChecks, 'sealingKeyChecks'> {
  readonly kind = 'postgres' as const;
  /** Whether this store does what SealingKeyChecks says (its option of that name). */
  readonly sealingKeyChecks: boolean;
  private readonly epochListeners = new Set<(epoch: string) => void>();
  /** The erasure epoch column of a read (ADR 0216): an InitPlan, read once per statement in its snapshot. */
  private readonly epochColumn: string;
  private readonly pool: Pool;
  private readonly wakeups = new Wakeups();
  private listener?: Client;
  /** The wait before listening again after the LISTEN connection was lost. */
  private relisten?: NodeJS.Timeout;
  private closed = false;
  private notifyPending = false;
  /** The payload of this store's NOTIFYs, so that its LISTEN connection can tell them from other processes'. */
  private readonly notifyId = randomUUID();
  /**
   * Whether another process listens on the channel (ADR 0218): true until this store has listened
   * for PEER_QUIET_MS after announcing itself without hearing anyone; true again as soon as any
   * other process's notification (an append, or a newcomer's announcement) arrives.
   */
  private othersListening = true;
  private heardOthers = false;
  private quietTimer?: NodeJS.Timeout;
  private appendsInFlight = 0;
  private queuedAppends: QueuedAppend[] = [];
  private readonly streamsInFlight = new Map<string, number>();
  private readonly replacedListeners = new Set<() => void>();

  private constructor(private readonly options: PostgresEventStoreOptions) {
    this.pool = options.pool;
    this.sealingKeyChecks = options.sealingKeyChecks === true;
    this.epochColumn = options.sealingKeyChecks ? ', (SELECT epoch::text FROM erasure_epoch) AS erasure_epoch' : '';
  }

  typeHeadSql(type: string): string | undefined {
    if (!this.options.headTypes?.includes(type)) return undefined;
    // The literal (not a parameter) lets the planner prove the partial index's predicate.
    return `(SELECT ${encodedPositionSql('e')} FROM es_events e WHERE e.event_type = ${sqlLiteral(type)}
      ORDER BY e.event_type DESC, e.transaction_id DESC, e.global_position DESC LIMIT 1)`;
  }

  onErasureEpoch(listener: (epoch: string) => void): () => void {
    this.epochListeners.add(listener);
    return () => this.epochListeners.delete(listener);
  }

  /** Hands the epoch a read returned to the listeners, before the read answers. */
  private sawEpoch(rows: readonly { erasure_epoch?: string | null }[]): void {
    const epoch = rows[0]?.erasure_epoch;
    if (epoch === undefined || epoch === null) return;
    for (const listener of this.epochListeners) listener(epoch);
  }

  static async create(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    const store = new PostgresEventStore(options);
    if (options.ensureSchema !== false) await ensureEventStoreSchema(options.pool, options.headTypes ?? []);
    if (options.listenConnectionString) await store.startListening(options.listenConnectionString);
    return store;
  }

  private async startListening(connectionString: string): Promise<void> {
    const client = new Client({ connectionString });
    // This store's own NOTIFY comes back here too; its readers were woken at the append already,
    // with its position.
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      // Announcements (ADR 0218): `hello:<id>` from a store that has just started listening,
      // `here:<id>` in answer. Anything from another store means another process listens.
      const [kind, id] = /^(hello|here|replaced):/.test(payload) ? payload.split(':') : ['append', payload];
      if (id === this.notifyId) return;
      if (kind === 'replaced') {
        // Another process replaced the log (ADR 0250): readers drop what they kept of the old one.
        this.replaced();
        this.wakeups.notify();
        return;
      }
      this.heardOthers = true;
      this.othersListening = true;
      if (kind === 'hello') {
        if (!this.closed)
          void this.pool.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', $1)`, [`here:${this.notifyId}`]).catch(() => undefined);
        return;
      }
      if (kind === 'append') this.wakeups.notify();
    });
    client.on('error', () => {
      // A lost LISTEN connection only costs latency: subscribers keep polling. Reconnect, unless
      // closed meanwhile: close() clears the wait, so no connection is opened after it.
      if (this.listener === client) this.listener = undefined;
      if (this.closed || this.relisten) return;
      this.relisten = setTimeout(() => {
        this.relisten = undefined;
        if (!this.closed) void this.startListening(connectionString).catch(() => undefined);
      }, 1000);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    // Closed while connecting: this connection is nobody's to end later.
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    // Announce this store: the others answer, and start notifying if they had stopped. Heard by
    // nobody for a while, this store stops notifying (only it would read them); see notifyOthers.
    this.heardOthers = false;
    // (Sent from the pool: the LISTEN connection's last statement stays its LISTEN, as monitoring sees it.)
    await this.pool.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', $1)`, [`hello:${this.notifyId}`]).catch(() => undefined);
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      if (!this.heardOthers) this.othersListening = false;
    }, PEER_QUIET_MS);
    this.quietTimer.unref();
  }

  /** Whether this store currently sends NOTIFYs after its appends (ADR 0218). */
  get notifyingOthers(): boolean {
    return !!this.options.listenConnectionString && (this.listener === undefined || this.othersListening);
  }

  /** Whether the LISTEN connection is up (false from the moment it is found lost). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  readonly atomicMultiStreamAppend = true;

  /**
   * Group commit (ADR 0146): single-stream appends go out at once while fewer than
   * APPENDS_IN_FLIGHT statements are running; those that arrive meanwhile wait and go out
   * together in one `es_append` (its all-or-nothing multi-stream form), one stream once per
   * statement. Each keeps its own expected revision; when the shared statement fails (a
   * conflict, an event id already stored, a lost connection) each append runs again on its own,
   * so it fails or succeeds alone (an append that did land is then found by its event ids).
   */
  async append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { expectedRevision?: ExpectedRevision; sealedWith?: readonly SealedWith[]; quiet?: boolean } = {},
  ): Promise<AppendResult> {
    const request: StreamAppend = {
      streamId,
      events,
      expectedRevision: options.expectedRevision,
      sealedWith: options.sealedWith,
      ...(options.quiet ? { quiet: true } : {}),
    };
    return (await this.appendTogether([request]))[0];
  }

  /**
   * An all-or-nothing append to several streams (as appendMany) that takes part in the group
   * commit like `append`: it may share its statement with others asked for meanwhile, and is
   * sent again alone when the shared one fails.
   */
  appendTogether(requests: readonly StreamAppend[]): Promise<AppendResult[]> {
    if (requests.length === 0) return Promise.resolve([]);
    if (new Set(requests.map((r) => r.streamId)).size !== requests.length)
      return Promise.reject(new Error('appendTogether takes each stream once'));
    const free = requests.every((r) => !this.streamsInFlight.has(r.streamId));
    return new Promise<AppendResult[]>((resolve, reject) => {
      if (this.appendsInFlight < APPENDS_IN_FLIGHT && this.queuedAppends.length === 0 && free) this.send([{ requests, resolve, reject }]);
      else {
        this.queuedAppends.push({ requests, resolve, reject });
        this.startQueuedAppends();
      }
    });
  }

  /**
   * Sends the queued appends in groups while statements are free: up to APPEND_GROUP_MAX
   * streams each, a stream at most once and never while an append to it is running, so that the
   * appends to one stream go out in the order they were asked for.
   */
  private startQueuedAppends(): void {
    while (this.queuedAppends.length && this.appendsInFlight < APPENDS_IN_FLIGHT) {
      const group: QueuedAppend[] = [];
      const later: QueuedAppend[] = [];
      const streams = new Set<string>();
      let size = 0;
      for (const queued of this.queuedAppends) {
        const ids = queued.requests.map((r) => r.streamId);
        const blocked = ids.some((id) => streams.has(id) || this.streamsInFlight.has(id));
        if ((group.length > 0 && size + ids.length > APPEND_GROUP_MAX) || blocked) later.push(queued);
        else {
          group.push(queued);
          size += ids.length;
        }
        for (const id of ids) streams.add(id);
      }
      this.queuedAppends = later;
      if (group.length === 0) return;
      this.send(group);
    }
  }

  private send(group: readonly QueuedAppend[]): void {
    this.appendsInFlight++;
    const streamIds = group.flatMap((g) => g.requests.map((r) => r.streamId));
    for (const id of streamIds) this.streamsInFlight.set(id, (this.streamsInFlight.get(id) ?? 0) + 1);
    const alone = (g: QueuedAppend) => this.appendMany(g.requests).then(g.resolve, g.reject);
    const done =
      group.length === 1
        ? alone(group[0])
        : this.appendMany(group.flatMap((g) => g.requests)).then(
            (results) => {
              let at = 0;
              for (const g of group) g.resolve(results.slice(at, (at += g.requests.length)));
            },
            // A conflict, a stored event id or a lost connection fails the shared statement: each
            // on its own now, so that only its own append fails (one that landed is found by its ids).
            () => Promise.all(group.map(alone)),
          );
    void done.finally(() => {
      this.appendsInFlight--;
      for (const id of streamIds) {
        const left = (this.streamsInFlight.get(id) ?? 1) - 1;
        if (left > 0) this.streamsInFlight.set(id, left);
        else this.streamsInFlight.delete(id);
      }
      this.startQueuedAppends();
    });
  }

  async appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0) return [];
    if (appends.some((a) => a.events.length === 0)) throw new Error('append needs at least one event per stream');
    if (new Set(appends.map((a) => a.streamId)).size !== appends.length) throw new Error('appendMany takes each stream once');
    const events = appends.flatMap((a) => a.events.map((e) => ({ stream: a.streamId, e })));
    const sealedWith = new Map<string, SealedWith>();
    for (const a of appends) for (const k of a.sealedWith ?? []) sealedWith.set(`${k.subject}\u0000${k.wrappedKey}`, k);
    if (sealedWith.size > 0 && !this.options.sealingKeyChecks) throw new Error('sealedWith needs a store created with sealingKeyChecks');
    try {
      const params: unknown[] = [
        appends.map((a) => a.streamId),
        appends.map((a) => String(a.expectedRevision ?? 'any')),
        appends.map((a) => a.events.length),
        events.map((x) => x.e.id),
        events.map((x) => x.e.type),
        // Data and metadata as one JSON array each, not as jsonb[]: pg writes an array parameter as
        // an array literal, escaping every quote of every event's JSON (a third of an append's
        // client CPU for a trigger), and the server parses that literal before the JSON.
        JSON.stringify(events.map((x) => x.e.data)),
        JSON.stringify(events.map((x) => x.e.metadata)),
      ];
      const elements = (n: number) => `ARRAY(SELECT x FROM jsonb_array_elements($${n}::jsonb) WITH ORDINALITY AS j(x, i) ORDER BY j.i)`;
      const append = `es_append($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], ${elements(6)}, ${elements(7)})`;
      let text = `SELECT * FROM ${append}`;
      if (sealedWith.size > 0) {
        // ADR 0216: the append runs only when every key its events were sealed with is still the
        // subject's stored key, in the same statement (so after no erasure committed before it).
        // The append is a lateral subquery fenced by OFFSET 0 whose only condition refers to the
        // check: Postgres evaluates it as a one-time filter, so es_append is not called when the
        // check fails and the statement answers no row.
        const keys = [...sealedWith.values()];
        params.push(
          keys.map((k) => k.subject),
          keys.map((k) => k.wrappedKey),
          keys.length,
        );
        text = `SELECT a.* FROM (
            SELECT count(*) = $10::int AS ok FROM erasure_keys k
            JOIN unnest($8::text[], $9::text[]) AS w(subject, wrapped) ON k.subject = w.subject AND k.wrapped_key = w.wrapped
          ) g CROSS JOIN LATERAL (SELECT * FROM ${append} WHERE g.ok OFFSET 0) a`;
      }
      const { rows } = await this.pool.query<{ o_stream: string; o_revision: string; o_position: string; o_tx: string }>(text, params);
      if (rows.length === 0) throw new SealingKeyChangedError([...new Set([...sealedWith.values()].map((k) => k.subject))]);
      // A failed append answers with exactly one row, its reason in o_tx, and has written nothing.
      const failure = rows.find((r) => r.o_tx === 'conflict' || r.o_tx === 'duplicate');
      if (failure && rows.length !== 1) throw new Error(`es_append answered a ${failure.o_tx} along with ${rows.length - 1} written rows`);
      if (failure?.o_tx === 'conflict') {
        const expected = appends.find((a) => a.streamId === failure.o_stream)?.expectedRevision ?? 'any';
        throw new WrongExpectedRevisionError(
          failure.o_stream,
          expected,
          failure.o_revision === null ? 'no_stream' : Number(failure.o_revision),
        );
      }
      if (failure) throw Object.assign(new Error('An event id is already stored'), { code: UNIQUE_VIOLATION });
      committedRequests.noteAppends(appends);
      // Each stream's last row (highest position, and so highest revision): one pass over the rows,
      // not one per stream (a schedule claim appends 1,500 streams at once).
      const lastOf = new Map<string, { row: (typeof rows)[number]; position: bigint; revision: number }>();
      for (const row of rows) {
        const position = BigInt(row.o_position);
        const revision = Number(row.o_revision);
        const seen = lastOf.get(row.o_stream);
        if (!seen) lastOf.set(row.o_stream, { row, position, revision });
        else {
          if (position > seen.position) Object.assign(seen, { row, position });
          seen.revision = Math.max(seen.revision, revision);
        }
      }
      const results = appends.map((a) => {
        const { row: last, position, revision } = lastOf.get(a.streamId)!;
        return {
          streamId: a.streamId,
          nextExpectedRevision: revision,
          globalPosition: position,
          position: encodePosition(BigInt(last.o_tx), position),
        };
      });
      // Readers are woken unless every append of the statement said nobody needs to hear of it.
      if (!appends.every((a) => a.quiet)) {
        this.wakeups.notify(results.reduce((max, r) => (r.position > max ? r.position : max), results[0].position));
        this.notifyOthers();
      }
      return results;
    } catch (error) {
      // The same events were appended before (a retry, or a concurrent twin that won the race):
      // answer as the first append did. Checked only on failure, off the hot path.
      if (error instanceof WrongExpectedRevisionError || (error as { code?: string }).code === UNIQUE_VIOLATION) {
        const replayed = await this.findAppended(appends);
        if (replayed) {
          committedRequests.noteAppends(appends);
          return replayed;
        }
      }
      // The connection failed after the statement may have reached the server: it may have
      // committed. Look once: found, the append stands; otherwise (or unknowable) it failed.
      if (mayHaveBeenSent(error)) {
        const landed = await this.findAppended(appends).catch(() => undefined);
        if (landed) {
          committedRequests.noteAppends(appends);
          return landed;
        }
      }
      throw error;
    }
  }

  async isEmpty(): Promise<boolean> {
    const { rows } = await this.pool.query('SELECT 1 FROM es_events LIMIT 1');
    return rows.length === 0;
  }

  /**
   * Writes recorded events back with their global positions and times (an import, ADR 0153). One
   * transaction per batch: each event must be the next revision of its stream, its hash chains
   * to the stream's previous event as an append's would, and the position sequence moves past
   * the batch so later appends continue after it.
   */
  async importEvents(events: readonly ImportedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `WITH input AS (
           SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::jsonb[], $7::jsonb[], $8::timestamptz[])
             WITH ORDINALITY AS t(pos, id, stream, revision, type, data, metadata, at, ord)
         )
         SELECT es_import_row(pos, id, stream, revision, type, data, metadata, at) FROM input ORDER BY ord`,
        [
          events.map((e) => e.globalPosition.toString()),
          events.map((e) => e.id),
          events.map((e) => e.streamId),
          events.map((e) => e.revision),
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(e.metadata)),
          events.map((e) => e.createdAt.toISOString()),
        ],
      );
      await client.query(
        `SELECT setval(pg_get_serial_sequence('es_events', 'global_position'), greatest($1::bigint, (SELECT last_value FROM es_events_global_position_seq)))`,
        [events[events.length - 1].globalPosition.toString()],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    this.wakeups.notify();
    this.notifyOthers();
  }

  async deleteStreams(
    streamIds: readonly string[],
    record: (deleted: DeletedStream[]) => StreamAppend,
  ): Promise<{ deleted: DeletedStream[]; position: LogPosition | null }> {
    if (streamIds.length === 0) return { deleted: [], position: null };
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // The streams' appends wait (their advisory locks, taken as es_append takes them).
      await client.query(
        `SELECT pg_advisory_xact_lock(l.h) FROM (SELECT DISTINCT hashtextextended(s, 0) AS h FROM unnest($1::text[]) s ORDER BY 1) l`,
        [streamIds],
      );
      const { rows } = await client.query<{ stream_id: string; positions: string[]; head: string | null }>(
        `SELECT stream_id, array_agg(global_position::text ORDER BY stream_revision) AS positions,
           (array_agg(encode(hash, 'hex') ORDER BY stream_revision DESC))[1] AS head
         FROM es_events WHERE stream_id = ANY($1::text[]) GROUP BY stream_id ORDER BY stream_id`,
        [streamIds],
      );
      const deleted: DeletedStream[] = rows.map((r) => ({
        streamId: r.stream_id,
        events: r.positions.length,
        globalPositions: r.positions.map(BigInt),
        headHash: r.head,
      }));
      if (deleted.length === 0) {
        await client.query('ROLLBACK');
        return { deleted, position: null };
      }
      const ids = deleted.map((d) => d.streamId);
      await client.query('DELETE FROM es_events WHERE stream_id = ANY($1::text[])', [ids]);
      await client.query('DELETE FROM es_streams WHERE stream_id = ANY($1::text[])', [ids]);
      await client.query('DELETE FROM es_chain_checkpoints WHERE stream_id = ANY($1::text[])', [ids]);
      const a = record(deleted);
      const { rows: written } = await client.query<{ o_revision: string; o_position: string; o_tx: string }>(
        'SELECT * FROM es_append($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])',
        [
          [a.streamId],
          [String(a.expectedRevision ?? 'any')],
          [a.events.length],
          a.events.map((e) => e.id),
          a.events.map((e) => e.type),
          a.events.map((e) => JSON.stringify(e.data)),
          a.events.map((e) => JSON.stringify(e.metadata)),
        ],
      );
      const last = written[written.length - 1];
      if (!last || last.o_tx === 'conflict' || last.o_tx === 'duplicate')
        throw new Error(`the record of the deletion was refused (${last?.o_tx})`);
      await client.query('COMMIT');
      this.wakeups.notify();
      this.notifyOthers();
      return { deleted, position: encodePosition(BigInt(last.o_tx), BigInt(last.o_position)) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async locateRange(range: LogRangeQuery): Promise<{ first: LogPosition; last: LogPosition } | null> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (range.globalPositions) {
      params.push(range.globalPositions.from.toString(), range.globalPositions.to.toString());
      where.push(`e.global_position BETWEEN $${params.length - 1}::bigint AND $${params.length}::bigint`);
    }
    if (range.times) {
      params.push(range.times.from.toISOString(), range.times.to.toISOString());
      // Times are read to the millisecond (as the log read shows and filters them): `to` covers its whole millisecond.
      where.push(
        `e.created_at >= $${params.length - 1}::timestamptz AND e.created_at < $${params.length}::timestamptz + interval '1 millisecond'`,
      );
    }
    const cond = where.length ? where.join(' AND ') : 'true';
    // By time, the window's rows are found first (the created_at BRIN index reads only the block
    // ranges of that time, ADR 0241) and ordered after: walking the log-order index until a row
    // of the window turns up would read the whole log before it.
    const source = range.times ? 'w e' : 'es_events e';
    const end = (order: 'ASC' | 'DESC') =>
      `(SELECT e.transaction_id::text AS tx, e.global_position::text AS pos FROM ${source} WHERE ${range.times ? 'true' : cond}
        ORDER BY e.transaction_id ${order}, e.global_position ${order} LIMIT 1)`;
    const window = range.times ? `WITH w AS MATERIALIZED (SELECT e.transaction_id, e.global_position FROM es_events e WHERE ${cond}) ` : '';
    const { rows } = await this.pool.query<{ tx: string; pos: string }>(`${window}${end('ASC')} UNION ALL ${end('DESC')}`, params);
    if (rows.length < 2) return null;
    return {
      first: encodePosition(BigInt(rows[0].tx), BigInt(rows[0].pos)),
      last: encodePosition(BigInt(rows[1].tx), BigInt(rows[1].pos)),
    };
  }

  async importReplacing(
    batches: (tx: ImportTransaction) => AsyncIterable<readonly ImportedEvent[]>,
    options: ReplacingImportOptions,
  ): Promise<ReplacingImportResult> {
    const client = await this.pool.connect();
    let events = 0;
    try {
      await client.query('BEGIN');
      // Appends (es_append inserts into es_events) wait until the import ends; reads go on.
      await client.query('LOCK TABLE es_events IN SHARE ROW EXCLUSIVE MODE');
      const { rows: others } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM es_events WHERE metadata->>'actor' IS DISTINCT FROM $1`,
        [options.replaceableActor],
      );
      if (Number(others[0].n) > 0) throw new LogNotEmptyError(Number(others[0].n));
      const removed = await client.query('DELETE FROM es_events');
      await client.query('DELETE FROM es_streams');
      await client.query('DELETE FROM es_chain_checkpoints');
      let last: bigint | undefined;
      const tx: ImportTransaction = { query: (sql, params) => client.query(sql, params) };
      for await (const batch of batches(tx)) {
        if (batch.length === 0) continue;
        await client.query(
          `WITH input AS (
             SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::jsonb[], $7::jsonb[], $8::timestamptz[])
               WITH ORDINALITY AS t(pos, id, stream, revision, type, data, metadata, at, ord)
           )
           SELECT es_import_row(pos, id, stream, revision, type, data, metadata, at) FROM input ORDER BY ord`,
          [
            batch.map((e) => e.globalPosition.toString()),
            batch.map((e) => e.id),
            batch.map((e) => e.streamId),
            batch.map((e) => e.revision),
            batch.map((e) => e.type),
            batch.map((e) => JSON.stringify(e.data)),
            batch.map((e) => JSON.stringify(e.metadata)),
            batch.map((e) => e.createdAt.toISOString()),
          ],
        );
        events += batch.length;
        last = batch[batch.length - 1].globalPosition;
      }
      let position: LogPosition = START;
      if (last !== undefined) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence('es_events', 'global_position'), greatest($1::bigint, (SELECT last_value FROM es_events_global_position_seq)))`,
          [last.toString()],
        );
        const { rows } = await client.query<{ tx: string }>('SELECT pg_current_xact_id()::text AS tx');
        position = encodePosition(BigInt(rows[0].tx), last);
      }
      await options.beforeCommit?.((sql, params) => client.query(sql, params as unknown[]), { position, events });
      // Delivered at the commit, to every process listening: their readers' windows are of the old log.
      await client.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', $1)`, [`replaced:${this.notifyId}`]);
      await client.query('COMMIT');
      this.replaced();
      if (events) {
        this.wakeups.notify();
        this.notifyOthers();
      }
      return { events, replaced: removed.rowCount ?? 0, position };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
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
    // Skipped only while this store's own LISTEN connection is up and has heard no other process
    // since it announced itself (ADR 0218): then nobody would read the notification. Without the
    // connection it cannot know, so it notifies.
    if (!this.notifyingOthers || this.notifyPending) return;
    this.notifyPending = true;
    setTimeout(() => {
      this.notifyPending = false;
      if (!this.closed) void this.pool.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', $1)`, [this.notifyId]).catch(() => undefined);
    }, 3);
  }

  /**
   * Idempotency: when every id is already in its stream, answer as the first append did (where
   * its last event landed, and that event's revision), whatever was appended since.
   */
  private async findAppended(appends: readonly StreamAppend[]): Promise<AppendResult[] | undefined> {
    const ids = appends.flatMap((a) => a.events.map((e) => e.id));
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events e WHERE e.event_id = ANY($1::uuid[]) ORDER BY e.global_position`,
      [ids],
    );
    if (rows.length === 0) return undefined;
    const byId = new Map(rows.map((r) => [r.event_id, r]));
    const complete = appends.every((a) => a.events.every((e) => byId.get(e.id)?.stream_id === a.streamId));
    if (!complete) throw new DuplicateEventIdError(rows.map((r) => r.event_id));
    return appends.map((a) => {
      const last = toRecorded(byId.get(a.events[a.events.length - 1].id)!);
      return { streamId: a.streamId, nextExpectedRevision: last.revision, globalPosition: last.globalPosition, position: last.position };
    });
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
      `SELECT ${EVENT_COLUMNS}${this.epochColumn} FROM es_events e WHERE e.stream_id = $1 ${bound}
       ORDER BY e.stream_revision ${backwards ? 'DESC' : 'ASC'} LIMIT $2`,
      params,
    );
    this.sawEpoch(rows);
    return rows.map(toRecorded);
  }

  async readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const out = new Map<string, RecordedEvent[]>(streamIds.map((id) => [id, []]));
    if (streamIds.length === 0) return out;
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS}${this.epochColumn} FROM es_events e WHERE e.stream_id = ANY($1::text[]) ORDER BY e.stream_id, e.stream_revision`,
      [streamIds],
    );
    this.sawEpoch(rows);
    for (const row of rows) out.get(row.stream_id)?.push(toRecorded(row));
    return out;
  }

  async readAll(options: ReadAllOptions = {}): Promise<ReadAllPage> {
    const after = options.after ?? START;
    const { major, minor } = decodePosition(after);
    const maxCount = options.maxCount ?? 1000;
    const filter = options.filter;
    const filtered = !!(filter?.eventTypes?.length || filter?.streamPrefixes?.length);
    // Only transactions older than the oldest one of this database still running are read, so
    // nothing that commits later can land behind a position a reader has already passed. The
    // bound never falls below what this store has read before ($4, see `finishedBelow`).
    const visible = `(e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint)
      AND e.transaction_id < GREATEST((SELECT es_visible_bound()), $4::text::xid8)`;
    const floor = this.finishedBelow.toString();
    if (!filtered) {
      const { rows } = await this.pool.query<EventRow>(
        `SELECT ${EVENT_COLUMNS}${this.epochColumn} FROM es_events e WHERE ${visible}
         ORDER BY e.transaction_id, e.global_position LIMIT $3`,
        [major.toString(), minor.toString(), maxCount, floor],
      );
      this.sawEpoch(rows);
      const events = rows.map(toRecorded);
      if (events.length) this.readUpTo(events[events.length - 1].position);
      return { events, scannedTo: events.length ? events[events.length - 1].position : after };
    }
    const { clause, params } = filterClause(filter!, 6);
    const { rows } = await this.pool.query<EventRow & { bound_tx: string; bound_pos: string; matched: boolean }>(
      `WITH win AS (
         SELECT e.transaction_id, e.global_position FROM es_events e WHERE ${visible}
         ORDER BY e.transaction_id, e.global_position LIMIT $3
       ), bound AS (
         SELECT transaction_id, global_position FROM win ORDER BY transaction_id DESC, global_position DESC LIMIT 1
       )
       SELECT b.transaction_id::text AS bound_tx, b.global_position AS bound_pos, m.*, m.event_id IS NOT NULL AS matched${this.epochColumn}
       FROM bound b LEFT JOIN LATERAL (
         -- A range of the log-order index up to the window's end, not a join with the window: a
         -- join may be planned as a scan of the whole table (on a table not analysed yet, every
         -- read did one, which made a rebuild quadratic).
         SELECT ${EVENT_COLUMNS} FROM es_events e
         WHERE (e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint)
           AND (e.transaction_id, e.global_position) <= (b.transaction_id, b.global_position)
           AND ${clause}
         ORDER BY e.transaction_id, e.global_position LIMIT $5
       ) m ON true`,
      [major.toString(), minor.toString(), SCAN_WINDOW, floor, maxCount, ...params],
    );
    if (rows.length === 0) return { events: [], scannedTo: after };
    this.sawEpoch(rows);
    const events = rows.filter((r) => r.matched).map(toRecorded);
    const windowEnd = encodePosition(BigInt(rows[0].bound_tx), BigInt(rows[0].bound_pos));
    this.readUpTo(windowEnd);
    const scannedTo = events.length === maxCount ? events[events.length - 1].position : windowEnd;
    return { events, scannedTo };
  }

  /**
   * The newest readable position, never lower than one this store answered before. The visible
   * bound leaves out transactions of other databases by reading pg_stat_activity, which can
   * briefly miss one: the bound then falls below a transaction this database has long committed
   * past, and the head computed from it would go backwards (a reactor starting "from the end"
   * then saw an old event). What was readable stays readable, so the highest head seen holds.
   */
  async headPosition(): Promise<LogPosition> {
    const { rows } = await this.pool.query<{ transaction_id: string; global_position: string }>(
      `SELECT e.transaction_id::text AS transaction_id, e.global_position FROM es_events e
       WHERE e.transaction_id < GREATEST((SELECT es_visible_bound()), $1::text::xid8)
       ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
      [this.finishedBelow.toString()],
    );
    const head = rows[0] ? encodePosition(BigInt(rows[0].transaction_id), BigInt(rows[0].global_position)) : START;
    if (head > this.highestHead) this.highestHead = head;
    if (rows[0]) this.readUpTo(head);
    return this.highestHead;
  }

  private highestHead: LogPosition = START;

  /**
   * One past the newest transaction this store has read an event of. That transaction had
   * finished and every older one with it (the visible bound was above it), so reads may always
   * include them: es_visible_bound() can err low for a moment (see `newestPosition`), and a read
   * must never answer less than an earlier one did, or a reader that compares two reads (the
   * shared log reader against the store, an auditor paging twice) sees an event vanish.
   */
  private finishedBelow = 0n;

  private readUpTo(position: LogPosition): void {
    const next = decodePosition(position).major + 1n;
    if (next > this.finishedBelow) this.finishedBelow = next;
  }

  /**
   * Without the visibility bound: es_visible_bound() errs low (a transaction of another database
   * that ended between the statement's snapshot and its read of pg_stat_activity counts as an open
   * one of this database), which is safe for readers and wrong for an upper bound.
   */
  async newestPosition(): Promise<LogPosition> {
    const { rows } = await this.pool.query<{ transaction_id: string; global_position: string }>(
      `SELECT e.transaction_id::text AS transaction_id, e.global_position FROM es_events e
       ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
    );
    const newest = rows[0] ? encodePosition(BigInt(rows[0].transaction_id), BigInt(rows[0].global_position)) : START;
    return newest > this.highestHead ? newest : this.highestHead;
  }

  /**
   * Recomputes every event's hash from its content and its predecessor's stored hash, checks
   * revisions are contiguous and reach each stream's head, and that every head a previous
   * verification recorded is still there. With nothing found (and checkpoint not false) records
   * the heads as the new checkpoint. One pass over the log in the database.
   */
  async verifyChain(options: { checkpoint?: boolean } = {}): Promise<ChainReport> {
    const client = await this.pool.connect();
    try {
      // One snapshot for every statement below, so appends running meanwhile are seen consistently.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const { rows: chain } = await client.query<{
        stream_id: string;
        stream_revision: string;
        global_position: string;
        hash_ok: boolean | null;
        prev_revision: string | null;
        chained: boolean;
        prev_chained: boolean | null;
      }>(
        `WITH c AS (
           SELECT e.stream_id, e.stream_revision, e.global_position, e.hash IS NOT NULL AS chained,
             e.hash = es_event_hash(lag(e.hash) OVER w, e.event_id, e.stream_id, e.stream_revision, e.event_type, e.data, e.metadata, e.created_at) AS hash_ok,
             lag(e.stream_revision) OVER w AS prev_revision, lag(e.hash IS NOT NULL) OVER w AS prev_chained
           FROM es_events e WINDOW w AS (PARTITION BY e.stream_id ORDER BY e.stream_revision)
         )
         SELECT stream_id, stream_revision, global_position, hash_ok, prev_revision, chained, prev_chained FROM c
         WHERE (chained AND NOT hash_ok) OR stream_revision <> coalesce(prev_revision + 1, 0) OR (NOT chained AND prev_chained)
         ORDER BY stream_id, stream_revision`,
      );
      const findings: ChainFinding[] = [];
      for (const r of chain) {
        const revision = Number(r.stream_revision);
        const globalPosition = BigInt(r.global_position);
        const expected = r.prev_revision === null ? 0 : Number(r.prev_revision) + 1;
        if (revision !== expected)
          findings.push({
            kind: 'missing',
            streamId: r.stream_id,
            revision: expected,
            detail:
              revision - expected === 1
                ? `revision ${expected} is missing (deleted)`
                : `revisions ${expected} to ${revision - 1} are missing (deleted)`,
          });
        // After a deleted predecessor the hash cannot match: the deletion is the finding.
        else if (r.chained && r.hash_ok === false)
          findings.push({
            kind: 'edited',
            streamId: r.stream_id,
            revision,
            globalPosition,
            detail: `event at global position ${globalPosition} does not match its hash (edited, or its predecessor was)`,
          });
        if (!r.chained && r.prev_chained)
          findings.push({
            kind: 'unchained',
            streamId: r.stream_id,
            revision,
            globalPosition,
            detail: `event at global position ${globalPosition} has no hash after chained events (its hash was removed)`,
          });
      }
      const { rows: tails } = await client.query<{ stream_id: string; revision: string; last: string | null }>(
        `SELECT s.stream_id, s.revision, (SELECT max(e.stream_revision) FROM es_events e WHERE e.stream_id = s.stream_id) AS last
         FROM es_streams s
         WHERE s.revision IS DISTINCT FROM (SELECT max(e.stream_revision) FROM es_events e WHERE e.stream_id = s.stream_id)
         ORDER BY s.stream_id`,
      );
      for (const t of tails)
        findings.push({
          kind: 'missing_tail',
          streamId: t.stream_id,
          revision: t.last === null ? 0 : Number(t.last) + 1,
          detail:
            t.last === null
              ? `the stream is at revision ${t.revision} but has no events (deleted)`
              : `the stream is at revision ${t.revision} but its last event is revision ${t.last} (deleted)`,
        });
      const { rows: gone } = await client.query<{ stream_id: string; revision: string; found: boolean }>(
        `SELECT c.stream_id, c.revision, e.hash IS NOT NULL AS found FROM es_chain_checkpoints c
         LEFT JOIN es_events e ON e.stream_id = c.stream_id AND e.stream_revision = c.revision
         WHERE e.hash IS DISTINCT FROM c.hash ORDER BY c.stream_id`,
      );
      for (const g of gone)
        if (!findings.some((f) => f.streamId === g.stream_id))
          findings.push({
            kind: g.found ? 'edited' : 'stream_gone',
            streamId: g.stream_id,
            revision: Number(g.revision),
            detail: g.found
              ? `revision ${g.revision} differs from the hash the last verification recorded`
              : `revision ${g.revision}, present at the last verification, is gone`,
          });
      const { rows: heads } = await client.query<{ events: string; unchained: string; streams: string; root: string | null }>(
        `SELECT (SELECT count(*) FROM es_events) AS events, (SELECT count(*) FROM es_events WHERE hash IS NULL) AS unchained,
           count(*) AS streams,
           encode(sha256(convert_to(coalesce(string_agg(h.stream_id || ':' || h.stream_revision || ':' || encode(coalesce(h.hash, ''::bytea), 'hex'), E'\n' ORDER BY h.stream_id), ''), 'UTF8')), 'hex') AS root
         FROM (SELECT DISTINCT ON (stream_id) stream_id, stream_revision, hash FROM es_events ORDER BY stream_id, stream_revision DESC) h`,
      );
      const checkpointed = findings.length === 0 && options.checkpoint !== false;
      if (checkpointed)
        await client.query(
          `INSERT INTO es_chain_checkpoints AS c (stream_id, revision, hash)
           SELECT DISTINCT ON (stream_id) stream_id, stream_revision, hash FROM es_events WHERE hash IS NOT NULL ORDER BY stream_id, stream_revision DESC
           ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, hash = excluded.hash, checked_at = now()`,
        );
      await client.query('COMMIT');
      return {
        checkedEvents: Number(heads[0].events),
        streams: Number(heads[0].streams),
        unchainedEvents: Number(heads[0].unchained),
        root: heads[0].root ?? '',
        findings,
        checkpointed,
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  onAppended(listener: (appended?: LogPosition) => void): () => void {
    return this.wakeups.listen(listener);
  }

  onReplaced(listener: () => void): () => void {
    this.replacedListeners.add(listener);
    return () => this.replacedListeners.delete(listener);
  }

  private replaced(): void {
    for (const listener of this.replacedListeners) listener();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relisten);
    clearTimeout(this.quietTimer);
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
