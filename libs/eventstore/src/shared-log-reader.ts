import { EventStore, LogFilter, LogPosition, ReadAllOptions, ReadAllPage, RecordedEvent } from './event-store';
import { Sleeper } from './sleeper';
import { Wakeups } from './wakeups';

/** What projection and reactor runtimes read the log through. */
export interface LogReader {
  readAll(options: ReadAllOptions): Promise<ReadAllPage>;
  headPosition(): Promise<LogPosition>;
  /** The newest committed position, even where reads do not serve it yet (see EventStore). */
  newestPosition(): Promise<LogPosition>;
  /** Called when there may be more to read. */
  onAppended(listener: () => void): () => void;
}

function matches(event: RecordedEvent, filter?: LogFilter): boolean {
  if (filter?.eventTypes?.length && !filter.eventTypes.includes(event.type)) return false;
  if (filter?.streamPrefixes?.length && !filter.streamPrefixes.some((p) => event.streamId.startsWith(p))) return false;
  return true;
}

/**
 * One tail of the log per process. Every projection and reactor of a worker would otherwise
 * poll the database on its own after each append; instead this reads each new stretch of the
 * log once, keeps the most recent events in memory, and serves filtered reads from there.
 * A reader further behind than the window reads the store directly, exactly as before.
 *
 * The window holds what readers still need and the newest `keepRecent` events (at most
 * `maxEvents` in any case): a named reader (a projection or reactor) keeps the events after the
 * position it last read from for as long as it read within `namedReaderMs` (a batch may take a
 * while under load), an anonymous one for the two `retainMs` periods after it read. Caught-up
 * readers therefore leave only the newest events, which keeps the process's live heap small: a
 * window of tens of thousands of events made every major GC of the api's heap long enough to
 * stall requests for hundreds of milliseconds (BENCHMARKS.md, feed reads).
 */
export class SharedLogReader implements LogReader {
  private buffer: RecordedEvent[] = [];
  /** The buffer holds exactly the events in (windowStart, head]. */
  private windowStart?: LogPosition;
  private head?: LogPosition;
  private readonly advanced = new Wakeups();
  private readonly sleeper = new Sleeper();
  private started?: Promise<void>;
  private stopped = false;
  private hinted = false;
  /** A hint without a position (another process appended) came since the last read. */
  private foreign = false;
  /** The furthest position an append of this process reported; the window has it once `head` is there. */
  private awaited?: LogPosition;
  private loop?: Promise<void>;
  private unlisten?: () => void;
  private unlistenReplaced?: () => void;
  /** Bumped each time the log is replaced (ADR 0250): the window is of the old log until the tail starts it again. */
  private generation = 0;
  private stale = false;
  /** Lowest `after` of anonymous in-window reads in this period and the one before it. */
  private lowWater: { current?: LogPosition; previous?: LogPosition; since: number };
  private readonly now: () => number;
  /** Where each named reader last read from, and when. */
  private readonly readers = new Map<string, { after: LogPosition; at: number }>();

  constructor(
    private readonly store: EventStore,
    private readonly options: {
      maxEvents?: number;
      pageSize?: number;
      retainMs?: number;
      keepRecent?: number;
      namedReaderMs?: number;
      /** Milliseconds now, for the retention periods (tests pass a clock they move by hand). */
      clock?: () => number;
    } = {},
  ) {
    this.now = options.clock ?? Date.now;
    this.lowWater = { since: this.now() };
  }

  /** How many events the window holds now. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Starts tailing on first use, so a process that never reads the log (the api) never polls. */
  private ensureStarted(): Promise<void> {
    this.started ??= (async () => {
      const head = await this.store.headPosition();
      this.windowStart = head;
      this.head = head;
      this.unlisten = this.store.onAppended((appended) => {
        if (appended === undefined) this.foreign = true;
        else if (this.awaited === undefined || appended > this.awaited) this.awaited = appended;
        this.hinted = true;
        this.sleeper.wake();
      });
      this.unlistenReplaced = this.store.onReplaced?.(() => this.dropWindow());
      this.loop = this.tail();
    })();
    return this.started;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    this.unlistenReplaced?.();
    this.sleeper.wake();
    await this.loop;
  }

  /**
   * The log was replaced (an import, ADR 0250): the events kept are of the old log. Reads go to
   * the store until the tail has started a new window at the new log's head.
   */
  private dropWindow(): void {
    this.generation++;
    this.stale = true;
    this.buffer = [];
    this.sleeper.wake();
  }

  /**
   * Reads each new stretch of the log once. After an append of this process (its hint carries
   * where it ended) one read is enough once the window has passed that position; only when it
   * has not (an older transaction still open holds the append out of sight) or the hint came
   * from elsewhere (a NOTIFY of another process, which says nothing of where) does it look
   * again soon, 5 ms and then less and less often. Idle, it reads once a second.
   */
  private async tail(): Promise<void> {
    const pageSize = this.options.pageSize ?? 1000;
    let backoff = 0;
    /** A hint from elsewhere was taken: look again soon, however the next read goes. */
    let uncertain = false;
    while (!this.stopped) {
      const woken = this.hinted;
      this.hinted = false;
      if (this.foreign) uncertain = true;
      this.foreign = false;
      this.sweep();
      try {
        const generation = this.generation;
        if (this.stale) {
          const head = await this.store.headPosition();
          if (generation !== this.generation) continue;
          this.buffer = [];
          this.windowStart = head;
          this.head = head;
          this.stale = false;
        }
        const page = await this.store.readAll({ after: this.head, maxCount: pageSize });
        // Replaced while this read was out: the page may be of the old log.
        if (generation !== this.generation) continue;
        const progressed = page.events.length > 0 || page.scannedTo > this.head!;
        if (progressed) {
          this.buffer.push(...page.events);
          this.head = page.scannedTo;
          this.sweep();
          this.advanced.notify();
        }
        const heldBack = this.awaited !== undefined && this.awaited > this.head!;
        if (page.events.length >= pageSize || (progressed && uncertain)) {
          backoff = 0;
          continue;
        }
        if (heldBack || uncertain) {
          // A commit may be held back for a moment by an older open transaction: look again soon.
          backoff = woken || backoff === 0 ? 5 : Math.min(backoff * 2, 1000);
          if (backoff >= 1000) uncertain = false;
        } else backoff = 1000;
      } catch {
        backoff = Math.min(Math.max(backoff * 2, 100), 5000);
      }
      if (!this.hinted) await this.sleeper.sleep(backoff);
    }
  }

  /**
   * Lets go of the events no recent reader needs any more, and of the oldest beyond `maxEvents`.
   * The tail does this at every step; a test calls it after moving its clock.
   * The buffer is replaced, never spliced: an array of dropped events held by a suspended
   * function would keep them alive.
   */
  sweep(): void {
    const maxEvents = this.options.maxEvents ?? 50_000;
    const now = this.now();
    const retainMs = this.options.retainMs ?? 5000;
    if (now - this.lowWater.since >= retainMs) this.lowWater = { previous: this.lowWater.current, since: now };
    const { current, previous } = this.lowWater;
    let needed = current === undefined ? previous : previous === undefined || current < previous ? current : previous;
    const namedSince = now - (this.options.namedReaderMs ?? 60_000);
    for (const [name, r] of this.readers) {
      if (r.at < namedSince) this.readers.delete(name);
      else if (needed === undefined || r.after < needed) needed = r.after;
    }
    let keepFrom = Math.max(0, this.buffer.length - maxEvents);
    const firstNeeded = needed === undefined ? this.buffer.length : this.firstAfter(needed);
    keepFrom = Math.max(keepFrom, Math.min(firstNeeded, this.buffer.length - (this.options.keepRecent ?? 2000)));
    if (keepFrom === 0) return;
    this.windowStart = this.buffer[keepFrom - 1].position;
    this.buffer = this.buffer.slice(keepFrom);
  }

  /** Index of the first buffered event after `position` (positions are increasing). */
  private firstAfter(position: LogPosition): number {
    let lo = 0;
    let hi = this.buffer.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.buffer[mid].position <= position) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  async readAll(options: ReadAllOptions = {}): Promise<ReadAllPage> {
    await this.ensureStarted();
    const after = options.after ?? '';
    if (options.reader) this.readers.set(options.reader, { after, at: this.now() });
    if (this.stale || after < this.windowStart! || after > this.head!) return this.store.readAll(options);
    if (!options.reader && (this.lowWater.current === undefined || after < this.lowWater.current)) this.lowWater.current = after;
    const maxCount = options.maxCount ?? 1000;
    const events: RecordedEvent[] = [];
    for (let i = this.firstAfter(after); i < this.buffer.length; i++) {
      const event = this.buffer[i];
      if (!matches(event, options.filter)) continue;
      events.push(event);
      if (events.length === maxCount) return { events, scannedTo: event.position };
    }
    return { events, scannedTo: this.head! };
  }

  async headPosition(): Promise<LogPosition> {
    return this.store.headPosition();
  }

  newestPosition(): Promise<LogPosition> {
    return this.store.newestPosition();
  }

  onAppended(listener: () => void): () => void {
    void this.ensureStarted();
    return this.advanced.listen(listener);
  }
}
