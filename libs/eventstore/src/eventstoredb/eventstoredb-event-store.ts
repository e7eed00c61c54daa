import { committedRequests } from '../committed-requests';
import {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  ANY,
  STREAM_EXISTS,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  UnavailableError,
  DeadlineExceededError,
  NotLeaderError,
  CancelledError,
  TimeoutError,
  AppendExpectedRevision,
  ResolvedEvent,
} from '@eventstore/db-client';
import {
  AppendResult,
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
  EventStoreUnavailableError,
  WrongExpectedRevisionError,
} from '../event-store';
import { decodePosition, encodePosition } from '../position';
import { Wakeups } from '../wakeups';

/** How many $all entries a filtered read inspects before it returns what it found. */
const SCAN_WINDOW = 5000;

type EsdbRecorded = NonNullable<ResolvedEvent['event']>;

function toRecorded(event: EsdbRecorded): RecordedEvent {
  const position = event.position!;
  return {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    globalPosition: position.commit,
    position: encodePosition(position.commit, position.prepare),
    data: event.data,
    metadata: event.metadata as EventMetadata,
    createdAt: new Date(event.created),
  };
}

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

function matches(event: EsdbRecorded, filter?: LogFilter): boolean {
  if (event.type.startsWith('$') || event.streamId.startsWith('$')) return false;
  if (filter?.eventTypes?.length && !filter.eventTypes.includes(event.type)) return false;
  if (filter?.streamPrefixes?.length && !filter.streamPrefixes.some((p) => event.streamId.startsWith(p))) return false;
  return true;
}

/** gRPC status codes of a call the server never served: CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE. */
const GRPC_OUTAGE_CODES = new Set([1, 4, 14]);

/**
 * The client's errors that mean the server cannot serve now, as opposed to an error of the call.
 * Some paths (an append with no connection yet) raise the raw gRPC error, with a numeric status.
 */
function unavailable(error: unknown): EventStoreUnavailableError | undefined {
  const grpc = error as { code?: unknown; details?: unknown };
  const outage =
    (typeof grpc?.code === 'number' && GRPC_OUTAGE_CODES.has(grpc.code) && 'details' in grpc) ||
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof NotLeaderError ||
    error instanceof CancelledError ||
    error instanceof TimeoutError;
  return outage ? new EventStoreUnavailableError(`EventStoreDB is unavailable: ${(error as Error).message}`, { cause: error }) : undefined;
}

/** Runs a call to the server, its outage errors raised as EventStoreUnavailableError. */
async function served<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw unavailable(error) ?? error;
  }
}

/**
 * EventStoreDB adapter. ESDB positions are (commit, prepare) pairs; they map onto the same
 * opaque, ordered LogPosition the Postgres adapter produces, so checkpoints are portable in shape.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  private readonly wakeups = new Wakeups();
  private live?: AllStreamSubscription;
  /** The wait before subscribing again after the subscription failed. */
  private rewatch?: NodeJS.Timeout;
  private closed = false;

  private constructor(private readonly client: EventStoreDBClient) {}

  static async create(connectionString: string): Promise<EventStoreDbEventStore> {
    const store = new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
    store.watch();
    return store;
  }

  /** A live $all subscription is used only to wake readers; it carries no data anywhere. */
  private watch(): void {
    if (this.closed) return;
    const subscription = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    subscription.on('data', () => this.wakeups.notify());
    subscription.on('error', () => {
      if (!this.closed) this.rewatch = setTimeout(() => this.watch(), 1000);
    });
    this.live = subscription;
  }

  /** EventStoreDB appends one stream at a time; callers retry with the same event ids. */
  readonly atomicMultiStreamAppend = false;

  async appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const a of appends) results.push(await this.append(a.streamId, a.events, { expectedRevision: a.expectedRevision }));
    return results;
  }

  async append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expected = options.expectedRevision ?? 'any';
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data as never, metadata: e.metadata })),
        { expectedRevision: toEsdbExpected(expected) },
      );
      committedRequests.noteAppends([{ events }]);
      this.wakeups.notify();
      const position = result.position ?? { commit: 0n, prepare: 0n };
      return {
        streamId,
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: encodePosition(position.commit, position.prepare),
        globalPosition: position.commit,
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : 'no_stream';
        throw new WrongExpectedRevisionError(streamId, expected, actual);
      }
      // The append may have reached the server before it became unreachable. A retry is safe
      // either way: EventStoreDB takes an append of event ids it already holds as done.
      throw unavailable(error) ?? error;
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const out: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: options.fromRevision !== undefined ? BigInt(options.fromRevision) : backwards ? END : ESDB_START,
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      });
      for await (const resolved of read) if (resolved.event) out.push(toRecorded(resolved.event));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw unavailable(error) ?? error;
    }
    return out;
  }

  async readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const read = await Promise.all(streamIds.map(async (id) => [id, await this.readStream(id)] as const));
    return new Map(read);
  }

  readAll(options: ReadAllOptions = {}): Promise<ReadAllPage> {
    return served(() => this.readAllPage(options));
  }

  private async readAllPage(options: ReadAllOptions): Promise<ReadAllPage> {
    const after = options.after ?? START;
    const maxCount = options.maxCount ?? 1000;
    const from = after === START ? ESDB_START : (({ major, minor }) => ({ commit: major, prepare: minor }))(decodePosition(after));
    const events: RecordedEvent[] = [];
    let scannedTo = after;
    let scanned = 0;
    const read = this.client.readAll({ fromPosition: from, direction: FORWARDS, maxCount: SCAN_WINDOW + 1 });
    for await (const resolved of read as AsyncIterable<AllStreamResolvedEvent>) {
      const event = resolved.event;
      if (!event?.position) continue;
      const position = encodePosition(event.position.commit, event.position.prepare);
      if (position <= after) continue; // ESDB starts reading at the given position, inclusive
      scanned += 1;
      if (matches(event, options.filter)) events.push(toRecorded(event));
      scannedTo = position;
      if (events.length >= maxCount || scanned >= SCAN_WINDOW) break;
    }
    await read.cancel().catch(() => undefined);
    return { events, scannedTo };
  }

  headPosition(): Promise<LogPosition> {
    return served(() => this.readHead());
  }

  /** EventStoreDB serves every committed event at once: the head is the newest. */
  newestPosition(): Promise<LogPosition> {
    return this.headPosition();
  }

  private async readHead(): Promise<LogPosition> {
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 100 });
    let head: LogPosition = START;
    for await (const resolved of read as AsyncIterable<AllStreamResolvedEvent>) {
      const event = resolved.event;
      if (event?.position && matches(event)) {
        head = encodePosition(event.position.commit, event.position.prepare);
        break;
      }
    }
    await read.cancel().catch(() => undefined);
    return head;
  }

  onAppended(listener: () => void): () => void {
    return this.wakeups.listen(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.rewatch);
    await this.live?.unsubscribe().catch(() => undefined);
    await this.client.dispose();
  }
}
