import { Decider, DomainEvent, fold } from '@notify/domain';
import { AppendResult, EventStore, RecordedEvent, WrongExpectedRevisionError } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { eventEnvelope } from './envelope';

export interface CommandMetadata {
  environment: string | null;
  correlation_id?: string;
  causation_id?: string;
  request_id?: string;
  actor?: string;
  /** W3C trace context of the work that caused the command (ADR 0160). */
  traceparent?: string;
  tracestate?: string;
}

export interface CommandOutcome<State, Event extends DomainEvent> {
  /** The events this call appended; empty when the decision had already been made. */
  events: Event[];
  /** State after the decision. */
  state: State;
  append?: AppendResult;
  streamId: string;
}

export interface HandleCommandOptions<Event, State = unknown> {
  /** Deterministic ids where a retry of the same request could append the same fact again. */
  eventId?: (event: Event, index: number) => string;
  maxAttempts?: number;
  /**
   * Decide only on this revision of the stream, because the caller decided something elsewhere
   * on what it read at that revision (a merge's source). A later revision fails with
   * WrongExpectedRevisionError instead of being retried: the caller redoes its read.
   */
  onlyAtRevision?: number | 'no_stream';
  /**
   * Decide the first round on what the caller already knows instead of reading the stream: a
   * stream it expects not to exist yet (`{ revision: 'no_stream' }`, the initial state), or one it
   * has just written (its revision and the state after its write). Where the stream is not as
   * assumed the append fails on the revision (nothing written) and the rounds go on as usual,
   * reading it; so do they where the assumed state decides nothing or refuses the command.
   */
  assume?: { revision: number | 'no_stream'; state?: State };
  /** Bookkeeping no reader needs to hear of at once: the append wakes no log reader (StreamAppend.quiet). */
  quiet?: boolean;
}

/**
 * Rounds of read-decide-append before a revision conflict is given up (and surfaces as
 * WrongExpectedRevisionError, which the API answers with 409). Commands on one stream from this
 * process never race each other (they are queued, see `oneAtATime`), so the rounds are for
 * writers in other processes; the backoff between them spreads those writers apart.
 */
export const DEFAULT_COMMAND_ATTEMPTS = 25;
const BACKOFF_BASE_MS = 2;
const BACKOFF_CAP_MS = 100;

/** Full jitter: a random wait up to an exponentially growing, capped bound. */
export function conflictBackoffMs(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

/**
 * A command, or how to build it from the current state: a write that merges its input with what
 * is stored (settings per environment, a variable's values) builds its command here, so that a
 * retry after a concurrent write merges with that write instead of overwriting it. It may throw
 * a DomainError; it must not do I/O (look things up before calling handleCommand).
 */
export type CommandFrom<State, Command> = Command | ((state: State) => Command);

/**
 * Load the aggregate's stream, fold it, decide, append with the revision that was read.
 * A concurrent writer makes the append fail on the revision; then the whole cycle is redone on
 * the new state (the command too, when it is built from the state), so the decision is always
 * made on the latest facts.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: CommandFrom<State, Command>,
  metadata: CommandMetadata,
  options: HandleCommandOptions<Event, State> = {},
): Promise<CommandOutcome<State, Event>> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_COMMAND_ATTEMPTS;
  const decide = (state: State) =>
    decider.decide(typeof command === 'function' ? (command as (state: State) => Command)(state) : command, state);
  const append = async (events: Event[], state: State, revision: number | undefined): Promise<CommandOutcome<State, Event>> => {
    const appended = await store.append(
      streamId,
      events.map((event, index) => eventEnvelope(event.type, event.data, options.eventId?.(event, index) ?? randomUUID(), metadata)),
      { expectedRevision: revision ?? 'no_stream', ...(options.quiet ? { quiet: true } : {}) },
    );
    return { events, state: events.reduce((s, e) => decider.evolve(s, e), state), append: appended, streamId };
  };
  /** The round on the assumed state; undefined where the assumption does not hold (then the stream is read). */
  const onAssumed = async (assumed: NonNullable<typeof options.assume>): Promise<CommandOutcome<State, Event> | undefined> => {
    const state = assumed.state ?? fold(decider, []);
    let events: Event[];
    try {
      events = decide(state);
    } catch {
      return undefined;
    }
    if (events.length === 0) return undefined;
    try {
      return await append(events, state, assumed.revision === 'no_stream' ? undefined : assumed.revision);
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return undefined;
      throw error;
    }
  };
  return oneAtATime(store, streamId, async () => {
    const assumed = options.assume && (await onAssumed(options.assume));
    if (assumed) return assumed;
    for (let attempt = 1; ; attempt++) {
      const history = await store.readStream(streamId);
      const revision = history.length ? history[history.length - 1].revision : undefined;
      if (options.onlyAtRevision !== undefined && options.onlyAtRevision !== (revision ?? 'no_stream')) {
        throw new WrongExpectedRevisionError(streamId, options.onlyAtRevision, revision ?? 'no_stream');
      }
      const state = fold(decider, history.map(toDomainEvent) as Event[]);
      const events = decide(state);
      if (events.length === 0) return { events, state, streamId };
      try {
        return await append(events, state, revision);
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError && attempt < maxAttempts) {
          await new Promise((resolve) => setTimeout(resolve, conflictBackoffMs(attempt)));
          continue;
        }
        throw error;
      }
    }
  });
}

/** One stream's command in a `handleCommands` call. */
export interface StreamCommand<State, Command, Event> {
  streamId: string;
  command: CommandFrom<State, Command>;
  eventId?: (event: Event, index: number) => string;
}

/**
 * The same decider over many streams in one round: one read of all the streams, one decision
 * each, one all-or-nothing append of every stream's events (each at the revision read). A
 * thousand identifies in one request make two round trips instead of two thousand. When another
 * writer got in first (a revision conflict: nothing of the round was written), when a stream is
 * named twice, or where the store cannot append to several streams atomically (EventStoreDB),
 * the commands run one by one through `handleCommand`, with its retries.
 */
export async function handleCommands<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  commands: readonly StreamCommand<State, Command, Event>[],
  metadata: CommandMetadata,
): Promise<CommandOutcome<State, Event>[]> {
  const oneByOne = async () => {
    const outcomes: CommandOutcome<State, Event>[] = [];
    for (const c of commands) outcomes.push(await handleCommand(store, c.streamId, decider, c.command, metadata, { eventId: c.eventId }));
    return outcomes;
  };
  const ids = commands.map((c) => c.streamId);
  if (commands.length < 2 || !store.atomicMultiStreamAppend || new Set(ids).size !== ids.length) return oneByOne();
  const histories = await store.readStreams(ids);
  const decided = commands.map((c) => {
    const history = histories.get(c.streamId) ?? [];
    const revision = history.length ? history[history.length - 1].revision : undefined;
    const state = fold(decider, history.map(toDomainEvent) as Event[]);
    const events = decider.decide(typeof c.command === 'function' ? (c.command as (state: State) => Command)(state) : c.command, state);
    return { c, revision, state, events };
  });
  const writing = decided.filter((d) => d.events.length > 0);
  let appended: AppendResult[] = [];
  if (writing.length > 0) {
    try {
      appended = await store.appendMany(
        writing.map((d) => ({
          streamId: d.c.streamId,
          events: d.events.map((event, index) =>
            eventEnvelope(event.type, event.data, d.c.eventId?.(event, index) ?? randomUUID(), metadata),
          ),
          expectedRevision: d.revision ?? 'no_stream',
        })),
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return oneByOne();
      throw error;
    }
  }
  const results = new Map(writing.map((d, i) => [d.c.streamId, appended[i]]));
  return decided.map((d) => ({
    events: d.events,
    state: d.events.reduce((s, e) => decider.evolve(s, e), d.state),
    ...(results.get(d.c.streamId) ? { append: results.get(d.c.streamId) } : {}),
    streamId: d.c.streamId,
  }));
}

const queues = new WeakMap<EventStore, Map<string, Promise<void>>>();

/**
 * Runs commands on one stream of one store one after the other within this process. Fifty
 * concurrent identifies of one user would otherwise all read the same revision and all but one
 * lose the append, round after round; queued, each reads the revision the previous one wrote.
 * Holds no database connection while waiting.
 */
async function oneAtATime<T>(store: EventStore, streamId: string, work: () => Promise<T>): Promise<T> {
  let streams = queues.get(store);
  if (!streams) queues.set(store, (streams = new Map()));
  const previous = streams.get(streamId);
  const run = previous ? previous.then(work) : work();
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  streams.set(streamId, tail);
  try {
    return await run;
  } finally {
    if (streams.get(streamId) === tail) streams.delete(streamId);
  }
}

export function toDomainEvent(recorded: RecordedEvent): DomainEvent {
  return { type: recorded.type, data: recorded.data };
}
