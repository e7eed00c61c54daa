/**
 * The event log port. One stream per aggregate; appends go to one stream at a time with an
 * expected revision; the whole log is read in commit order through opaque positions.
 */

/** Opaque, lexicographically ordered position in the whole log (compare with < and >). */
export type LogPosition = string;
export const START: LogPosition = '';

export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface EventMetadata {
  /** Environment slug; null for account-level streams (service tokens). */
  environment: string | null;
  schema_version: number;
  correlation_id?: string;
  causation_id?: string;
  request_id?: string;
  /** Who caused it: api key id, service token id, or a system component name. */
  actor?: string;
  /** W3C trace context of the work that appended it (ADR 0160). */
  traceparent?: string;
  tracestate?: string;
  [key: string]: unknown;
}

export interface EventToAppend<Data = unknown> {
  /** uuid; deterministic where a retry could append the same fact again. */
  id: string;
  type: string;
  data: Data;
  metadata: EventMetadata;
}

export interface RecordedEvent<Data = unknown> {
  id: string;
  type: string;
  streamId: string;
  /** 0-based revision inside its stream. */
  revision: number;
  /** Monotonic number shown to humans and downstream consumers. */
  globalPosition: bigint;
  /** Position used for checkpoints; strictly increasing in readAll order. */
  position: LogPosition;
  data: Data;
  metadata: EventMetadata;
  createdAt: Date;
}

export interface AppendResult {
  streamId: string;
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: number;
  /** Position of the last appended event. */
  position: LogPosition;
  globalPosition: bigint;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive; defaults to the start (forwards) or the end (backwards). */
  fromRevision?: number;
  maxCount?: number;
}

export interface LogFilter {
  eventTypes?: readonly string[];
  streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive lower bound. */
  after?: LogPosition;
  maxCount?: number;
  filter?: LogFilter;
  /** Who reads (a projection or reactor name): a shared reader keeps what a named reader has not read yet. */
  reader?: string;
}

export interface ReadAllPage {
  events: RecordedEvent[];
  /**
   * Everything up to here has been looked at, matched or not. A filtered reader checkpoints
   * this so it never rescans a stretch of events that did not match.
   */
  scannedTo: LogPosition;
}

export interface StreamAppend {
  streamId: string;
  events: readonly EventToAppend[];
  expectedRevision?: ExpectedRevision;
  /**
   * Only for a store with `sealingKeyChecks` (ADR 0216): the append lands only if each of these
   * is, in the append's own statement, the subject's stored (wrapped) erasure key; otherwise it
   * fails with SealingKeyChangedError and writes nothing.
   */
  sealedWith?: readonly SealedWith[];
  /**
   * No reader needs to hear of this append now (bookkeeping no projection or reactor reads, such
   * as an idempotency key's claim): the store does not wake the log's readers for it, in this
   * process or others. They read past it with the next append they are woken for, or when they
   * poll. A store may ignore it (it only saves reads).
   */
  quiet?: boolean;
}

/** A subject's erasure key an append's events were sealed with, in its wrapped form as stored. */
export interface SealedWith {
  subject: string;
  wrappedKey: string;
}

/**
 * A store whose database also holds the erasure keys (ADR 0180, 0216): each read that returns
 * events also returns the erasure epoch of its own snapshot (given to the listeners before the
 * read answers), and appends honour `sealedWith`.
 */
export interface SealingKeyChecks {
  readonly sealingKeyChecks: true;
  onErasureEpoch(listener: (epoch: string) => void): () => void;
}

export function hasSealingKeyChecks(store: object): store is SealingKeyChecks {
  return (store as Partial<SealingKeyChecks>).sealingKeyChecks === true;
}

/** An append conditional on sealing keys found one of them no longer stored (destroyed, or destroyed and made again). */
export class SealingKeyChangedError extends Error {
  constructor(readonly subjects: readonly string[]) {
    super(`An erasure key an append was sealed with is no longer stored (${subjects.join(', ')})`);
    this.name = 'SealingKeyChangedError';
  }
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  /** Whether appendMany is all-or-nothing (PostgreSQL) or stream by stream (EventStoreDB). */
  readonly atomicMultiStreamAppend: boolean;
  append(
    streamId: string,
    events: readonly EventToAppend[],
    options?: { expectedRevision?: ExpectedRevision; sealedWith?: readonly SealedWith[]; quiet?: boolean },
  ): Promise<AppendResult>;
  /**
   * Appends to several streams. Where atomicMultiStreamAppend is false a failure can leave some
   * streams appended: callers use deterministic event ids and simply retry.
   */
  appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /**
   * appendMany that may share one statement with appends asked for meanwhile (group commit),
   * with the same outcome for its own streams. Optional: appendMany where a store has none.
   */
  appendTogether?(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Several whole streams at once (a missing stream reads as empty). */
  readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>>;
  readAll(options?: ReadAllOptions): Promise<ReadAllPage>;
  /** Position of the newest event committed and readable through readAll. */
  headPosition(): Promise<LogPosition>;
  /**
   * Position of the newest event committed, even where readAll does not serve it yet (a
   * transaction that may still add events before it is open, or looks open): an upper bound of
   * everything appended so far, for waits on "everything the log held then". Never a position to
   * resume reading after: headPosition is.
   */
  newestPosition(): Promise<LogPosition>;
  /**
   * A SQL expression for the position of the newest committed event of one type, for a caller to
   * put in a statement of its own on the same database (ADR 0258): one index probe. Only for the
   * types the store was told to keep an index of; undefined otherwise, and where the log is not
   * in the caller's database.
   */
  typeHeadSql?(type: string): string | undefined;
  /**
   * A hint that something may have been appended; never a delivery guarantee. For an append made
   * through this store object the hint carries the position of its last event (the log holds
   * everything of that append once a reader has passed it); a hint from elsewhere carries none.
   */
  onAppended(listener: (appended?: LogPosition) => void): () => void;
  /**
   * Called when the whole log was replaced (an import into a first start, ADR 0250), in this
   * process at once and in others as the notification arrives: what a reader kept of the log
   * (a window of recent events) is of the old one. Absent where the log cannot be replaced.
   */
  onReplaced?(listener: () => void): () => void;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/**
 * The event store's server cannot serve now (unreachable, no leader, the call's deadline passed).
 * Its `code` is one the HTTP layer answers 503 for, like a Postgres outage (ADR 0135).
 */
export class EventStoreUnavailableError extends Error {
  readonly code = EVENT_STORE_UNAVAILABLE;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventStoreUnavailableError';
  }
}
export const EVENT_STORE_UNAVAILABLE = 'EVENT_STORE_UNAVAILABLE';

export class DuplicateEventIdError extends Error {
  constructor(readonly eventIds: string[]) {
    super(`Events already appended elsewhere: ${eventIds.join(', ')}`);
    this.name = 'DuplicateEventIdError';
  }
}

/** Something wrong with the log found by a chain verification (ADR 0176). */
export interface ChainFinding {
  /**
   * edited: the event's content or hash is not what was appended; missing: revisions absent
   * inside a stream (deleted rows); missing_tail: the stream's head revision has no event;
   * stream_gone: a stream a previous verification saw up to a revision no longer has it;
   * unchained: an event without a hash after chained events of its stream.
   */
  kind: 'edited' | 'missing' | 'missing_tail' | 'stream_gone' | 'unchained';
  streamId: string;
  /** The revision concerned (for missing: the first absent one). */
  revision: number;
  /** The row concerned, where there is one. */
  globalPosition?: bigint;
  detail: string;
}

export interface ChainReport {
  checkedEvents: number;
  streams: number;
  /** Events written before the chain existed: not covered. */
  unchainedEvents: number;
  /** sha256 over every stream's head (id, revision, hash): write it down elsewhere to notice a rewrite of the whole log. */
  root: string;
  findings: ChainFinding[];
  /** Whether the heads were recorded as the new checkpoint (only when nothing was found). */
  checkpointed: boolean;
}

/** A log that can prove it was not edited: the PostgreSQL store (EventStoreDB events cannot be edited in place). */
export interface TamperEvidentLog {
  verifyChain(options?: { checkpoint?: boolean }): Promise<ChainReport>;
}

export function isTamperEvident(store: EventStore): store is EventStore & TamperEvidentLog {
  return typeof (store as Partial<TamperEvidentLog>).verifyChain === 'function';
}

/** An event as an export recorded it, to be written back into an empty log (ADR 0153). */
export interface ImportedEvent extends EventToAppend {
  streamId: string;
  revision: number;
  globalPosition: bigint;
  createdAt: Date;
}

/**
 * A log that can take events back as they were recorded elsewhere: same ids, streams, revisions,
 * global positions and times (the PostgreSQL store). Positions (commit order) are the importing
 * database's own; the hash chain is computed afresh over the imported rows.
 */
export interface LogImporter {
  /** Whether the log holds no event at all. */
  isEmpty(): Promise<boolean>;
  /** Appends a batch in global-position order, each event the next revision of its stream; all or nothing. */
  importEvents(events: readonly ImportedEvent[]): Promise<void>;
  /**
   * The whole import in one transaction (the HTTP import, ADR 0197): refuses (LogNotEmptyError,
   * before reading a batch) unless every event in the log was recorded by `replaceableActor` (what
   * a first start writes), removes those, writes every batch, runs `beforeCommit` in the same
   * transaction and commits; any error rolls everything back. Appends wait meanwhile. `batches` is
   * called once, with the transaction, when it is open.
   */
  importReplacing(
    batches: (tx: ImportTransaction) => AsyncIterable<readonly ImportedEvent[]>,
    options: ReplacingImportOptions,
  ): Promise<ReplacingImportResult>;
}

/**
 * The import's own transaction, given to whoever produces its batches (ADR 0249): what they read
 * or write in the database while the import is open (erasure keys) goes through it, never through
 * another connection, which a one-connection pool (the embedded database) could not give while the
 * import holds its one. The same object for the whole import.
 */
export interface ImportTransaction {
  query<R extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

export interface ReplacingImportOptions {
  replaceableActor: string;
  /** Statements that must commit with the import (the reactors' checkpoints); `end.position` is where the import ends. */
  beforeCommit?: (
    query: (sql: string, params?: unknown[]) => Promise<unknown>,
    end: { position: LogPosition; events: number },
  ) => Promise<void>;
}

export interface ReplacingImportResult {
  events: number;
  /** Events of the first start that the import replaced. */
  replaced: number;
  /** Where the imported log ends, in this installation's positions. */
  position: LogPosition;
}

/** The log holds events someone other than the first start recorded: an import would mix two histories. */
export class LogNotEmptyError extends Error {
  constructor(readonly events: number) {
    super(`The event log holds ${events} events recorded after the first start; import only into an empty installation`);
  }
}

/**
 * Deletes whole streams from the log and appends the record of it in the same transaction (ADR
 * 0240: legacy streams whose ids hold personal data). Their hash-chain checkpoints go too; the
 * record lists what was deleted. PostgreSQL only.
 */
export interface StreamRedactor {
  deleteStreams(
    streamIds: readonly string[],
    record: (deleted: DeletedStream[]) => StreamAppend,
  ): Promise<{ deleted: DeletedStream[]; position: LogPosition | null }>;
}
export interface DeletedStream {
  streamId: string;
  events: number;
  globalPositions: bigint[];
  /** The hash of its last event (hex), null before the chain. */
  headHash: string | null;
}
export function isStreamRedactor(store: EventStore): store is EventStore & StreamRedactor {
  return typeof (store as Partial<StreamRedactor>).deleteStreams === 'function';
}

export function isLogImporter(store: EventStore): store is EventStore & LogImporter {
  return typeof (store as Partial<LogImporter>).importEvents === 'function';
}

/** Global-position and time bounds of a part of the log (both included). */
export interface LogRangeQuery {
  globalPositions?: { from: bigint; to: bigint };
  times?: { from: Date; to: Date };
}

/**
 * Finds where the events of a global-position or time range lie in commit order (a replay to
 * Kafka by those, ADR 0198): the first and last such event's `position`, or null when none. Events
 * between them outside the range are the caller's to skip (commit order and global positions or
 * times differ where transactions overlapped).
 */
export interface LogRangeLocator {
  locateRange(range: LogRangeQuery): Promise<{ first: LogPosition; last: LogPosition } | null>;
}

export function isLogRangeLocator(store: EventStore): store is EventStore & LogRangeLocator {
  return typeof (store as Partial<LogRangeLocator>).locateRange === 'function';
}

/**
 * A store that opens sealed personal fields on read (ADR 0180) and can give back, for events it
 * handed out, their data as the log holds it: sealed. The Kafka relay publishes `events.v1` in
 * that form (ADR 0182).
 */
export interface SealedForms {
  /** Each event's data as logged (sealed fields sealed), by the event object a read returned. */
  sealedForms(events: readonly RecordedEvent[]): Promise<Map<RecordedEvent, unknown>>;
}

export function hasSealedForms(store: unknown): store is SealedForms {
  return typeof (store as Partial<SealedForms> | null)?.sealedForms === 'function';
}
