import { lastImportPosition } from './log-imports.migration';
import { decodePosition, LogPosition, LogReader, ReadAllPage, RecordedEvent, START } from '@notify/eventstore';
import { followLog, FollowingLoop } from './follow-log';
import { DataSource } from 'typeorm';
import { RuntimeLogger } from './projection-runtime';
import { NOTHING_DONE, Reactor } from './reactor';
import { ReadAhead } from './read-ahead';
import { returnedRows } from './returning';

export interface ReactorLag {
  name: string;
  position: LogPosition;
  /** Events in the log after the checkpoint (by global position; approximate across gaps). */
  events: number;
  /** Age of the oldest event not yet handled; 0 when caught up. */
  seconds: number;
  /** Events handled since the checkpoint was created (a counter). */
  handled: number;
}

/**
 * How far a reactor is behind the log, read from its checkpoint row, so any process sharing
 * the database (an api instance answering /readyz or /metrics) can tell, not only the worker
 * running it. undefined when the reactor has no checkpoint yet.
 */
export async function reactorLag(
  store: LogReader,
  dataSource: DataSource,
  name: string,
  now: Date = new Date(),
): Promise<ReactorLag | undefined> {
  const [row] = await dataSource.query<{ position: string; events_handled: string }[]>(
    'SELECT position, events_handled FROM reactor_checkpoints WHERE name = $1',
    [name],
  );
  if (!row) return undefined;
  const handled = Number(row.events_handled);
  const [head, next] = await Promise.all([store.headPosition(), store.readAll({ after: row.position, maxCount: 1 })]);
  const oldest = next.events[0];
  if (!oldest || head <= row.position) return { name, position: row.position, events: 0, seconds: 0, handled };
  const behind = decodePosition(head).minor - decodePosition(row.position).minor;
  return {
    name,
    position: row.position,
    events: Math.max(1, Number(behind > 0n ? behind : 0n)),
    seconds: Math.max(0, (now.getTime() - oldest.createdAt.getTime()) / 1000),
    handled,
  };
}

const PERSIST_SKIPPED_EVERY_MS = 500;

interface PendingMove {
  name: string;
  expected: LogPosition;
  to: LogPosition;
  handled: number;
  resolve: (moved: boolean) => void;
  reject: (error: unknown) => void;
}

export interface ReactorStatus {
  name: string;
  position: LogPosition;
  eventsHandled: number;
  lastError?: string;
}

/** Groups a batch by stream, keeping each stream's order, for parallel handling. */
export function byStream(events: readonly RecordedEvent[]): RecordedEvent[][] {
  const groups = new Map<string, RecordedEvent[]>();
  for (const e of events) {
    const group = groups.get(e.streamId);
    if (group) group.push(e);
    else groups.set(e.streamId, [e]);
  }
  return [...groups.values()];
}

async function inParallel<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await run(items[next++]);
  });
  await Promise.all(workers);
}

/**
 * Runs reactors over the log: read a batch after the checkpoint, handle it, then move the
 * checkpoint with a compare-and-set. A crash between handling and checkpointing replays the
 * batch (effects are idempotent); a second worker racing on the same reactor wastes work but
 * cannot move the checkpoint backwards or skip events.
 */
export class ReactorRuntime {
  private readonly loops = new Map<string, { stop: () => Promise<void>; lastError?: string }>();
  /** Where each reactor has read to, and what its checkpoint row says (see ProjectionRuntime). */
  private readonly cursor = new Map<
    string,
    {
      position: LogPosition;
      persisted: LogPosition;
      persistedAt: number;
      /** Events handled with no effect since the row was written: counted in `events_handled` with the next write. */
      unwritten?: number;
    }
  >();

  readonly reactors: readonly Reactor[];
  /**
   * Whether an import may still replace the log under this runtime. It may not once this runtime
   * has moved a checkpoint past an event appended by someone other than the first start: that
   * event is in the log for good, and an import refuses a log that holds one (409). Until then
   * each page is checked against the checkpoint row before it is acted on.
   */
  private importPossible = true;
  private pendingMoves: PendingMove[] = [];
  /** Reactors that read ahead: the next page, read while the current one is handled. */
  private readonly readAheads = new Map<string, ReadAhead>();
  private flushing?: Promise<void>;
  /** Reactors whose last page was at least half full (a backlog; ADR 0286). */
  private readonly backlogged = new Set<string>();

  constructor(
    private readonly store: LogReader,
    private readonly dataSource: DataSource,
    reactors: readonly Reactor[],
    private readonly options: {
      batchSize: number;
      logger?: RuntimeLogger;
      /**
       * How long progress over events of no concern, handled with no effect, or handled by a
       * replayable reactor, may go unwritten (default 500 ms).
       */
      persistSkippedEveryMs?: number;
      /**
       * The actor of a first start's events (`system:bootstrap`): an import may replace the log
       * only while every event is theirs (ADR 0197).
       */
      replaceableActor?: string;
    },
  ) {
    this.reactors = reactors.filter((r) => r.enabled !== false);
  }

  async start(): Promise<void> {
    for (const reactor of this.reactors) {
      await this.prepare(reactor);
      this.loops.set(reactor.name, this.loop(reactor));
    }
  }

  /**
   * Stops every loop once its current batch is done. A stop still waiting after `slowStopMs`
   * (10 s) logs which reactors are still in a batch, so a shutdown that runs over its bound says
   * which reactor held it.
   */
  async stop(slowStopMs = 10_000): Promise<void> {
    const stopping = new Set(this.loops.keys());
    const slow = setTimeout(() => {
      const log = this.options.logger;
      (log?.warn ?? log?.info)?.call(log, { reactors: [...stopping] }, 'reactors still finishing their batch before stopping');
    }, slowStopMs);
    slow.unref();
    try {
      await Promise.all([...this.loops].map(([name, l]) => l.stop().finally(() => stopping.delete(name))));
    } finally {
      clearTimeout(slow);
    }
    this.loops.clear();
    await this.closeReadAheads();
    // Not writing it only means looking at those events again after the restart.
    await this.writeProgress().catch((error) => this.options.logger?.error({ err: error }, 'reactor progress not written on stop'));
  }

  /**
   * Writes how far each reactor has looked where the row is behind (progress kept unwritten
   * for a while, see persistSkippedEveryMs), so a clean stop replays nothing. A row another
   * worker moved meanwhile stays as it is (compare-and-set).
   */
  private async writeProgress(): Promise<void> {
    const behind = [...this.cursor].filter(([, c]) => c.position !== c.persisted);
    await Promise.all(
      behind.map(async ([name, c]) => {
        if (await this.moveCheckpoint(name, c.persisted, c.position, c.unwritten ?? 0))
          this.cursor.set(name, { position: c.position, persisted: c.position, persistedAt: Date.now() });
      }),
    );
  }

  private async closeReadAheads(name?: string): Promise<void> {
    const closing = [...this.readAheads].filter(([n]) => name === undefined || n === name);
    for (const [n] of closing) this.readAheads.delete(n);
    await Promise.all(closing.map(([, r]) => r.close()));
  }

  /** The page after `after`: read now, or read ahead while the page before was handled. */
  private readPage(reactor: Reactor, after: LogPosition): Promise<ReadAllPage> {
    const maxCount = reactor.batchSize ?? this.options.batchSize;
    const read = async (from: LogPosition) => {
      const page = await this.store.readAll({ after: from, maxCount, filter: reactor.filter, reader: `reactor:${reactor.name}` });
      if (page.events.length) reactor.prepare?.(page.events);
      return page;
    };
    if (!reactor.readAhead) return read(after);
    let ahead = this.readAheads.get(reactor.name);
    if (!ahead) {
      // Only a full page says more is waiting: a reactor keeping up reads nothing extra.
      ahead = new ReadAhead(read, (page) => page.events.length >= maxCount);
      this.readAheads.set(reactor.name, ahead);
    }
    return ahead.page(after);
  }

  /** Whether the reactor's last page was at least half full (a backlog): the background projections yield to it (ADR 0286). */
  behind(name: string): boolean {
    return this.backlogged.has(name);
  }

  /** Creates the reactors' checkpoints without running them, so their lag is reported before they first run. */
  async createCheckpoints(): Promise<void> {
    for (const reactor of this.reactors) await this.prepare(reactor);
  }

  private async prepare(reactor: Reactor): Promise<void> {
    // After an import, history was acted on by the installation it came from (ADR 0153).
    const initial = reactor.startFrom === 'end' ? await this.store.headPosition() : ((await lastImportPosition(this.dataSource)) ?? START);
    await this.dataSource.query('INSERT INTO reactor_checkpoints (name, position) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      reactor.name,
      initial,
    ]);
  }

  /** Handles at most one batch. */
  async step(reactor: Reactor): Promise<{ handled: number; idle: boolean }> {
    let cursor = this.cursor.get(reactor.name);
    if (!cursor) {
      const [row] = await this.dataSource.query<{ position: string }[]>('SELECT position FROM reactor_checkpoints WHERE name = $1', [
        reactor.name,
      ]);
      const position = row?.position ?? START;
      cursor = { position, persisted: position, persistedAt: Date.now() };
      this.cursor.set(reactor.name, cursor);
    }
    const from = cursor.position;
    const persistEvery = this.options.persistSkippedEveryMs ?? PERSIST_SKIPPED_EVERY_MS;
    const page = await this.readPage(reactor, from);
    if (page.events.length * 2 >= (reactor.batchSize ?? this.options.batchSize)) this.backlogged.add(reactor.name);
    else this.backlogged.delete(reactor.name);
    if (page.events.length === 0 && page.scannedTo <= from) {
      // Caught up: if skipped progress has not been written for a while, write it now.
      if (cursor.position === cursor.persisted || Date.now() - cursor.persistedAt < persistEvery) return { handled: 0, idle: true };
    }
    if (page.events.length && this.importPossible && !(await this.stillAt(reactor.name, cursor.persisted))) {
      // Moved meanwhile by another worker, or by an import whose events this page holds (ADR
      // 0197): those were acted on where they came from. Continue from the checkpoint.
      this.cursor.delete(reactor.name);
      reactor.skipped?.();
      return { handled: 0, idle: true };
    }
    let acted = false;
    if (page.events.length) {
      const concurrency = reactor.concurrency ?? 1;
      if (concurrency <= 1) acted = (await reactor.handle(page.events)) !== NOTHING_DONE;
      else
        await inParallel(byStream(page.events), concurrency, async (group) => {
          if ((await reactor.handle(group)) !== NOTHING_DONE) acted = true;
        });
    }
    if ((!acted || reactor.replayable || reactor.repeatsTolerated) && Date.now() - cursor.persistedAt < persistEvery) {
      // Nothing here for this reactor, nothing done with it, or done so that doing it again
      // changes nothing (or nothing not tolerated): remember how far it looked without writing
      // (a crash now only makes it look at these events again).
      if (this.cursor.get(reactor.name) === cursor) {
        cursor.position = page.scannedTo;
        cursor.unwritten = (cursor.unwritten ?? 0) + page.events.length;
      }
      return { handled: page.events.length, idle: false };
    }
    const handled = page.events.length + (cursor.unwritten ?? 0);
    const moved = await this.moveCheckpoint(reactor.name, cursor.persisted, page.scannedTo, handled);
    if (!moved) {
      // Another worker moved it: continue from there.
      this.cursor.delete(reactor.name);
      reactor.skipped?.();
      return { handled: page.events.length, idle: true };
    }
    this.cursor.set(reactor.name, { position: page.scannedTo, persisted: page.scannedTo, persistedAt: Date.now() });
    // The move succeeded, so no import moved the checkpoint: these events were appended here.
    const replaceable = this.options.replaceableActor ?? 'system:bootstrap';
    if (this.importPossible && page.events.some((e) => e.metadata.actor !== replaceable)) this.importPossible = false;
    return { handled: page.events.length, idle: false };
  }

  /**
   * Whether the checkpoint is still where this process last wrote it. Read after the page: an
   * import commits its events and the moved checkpoints together, so a page that holds imported
   * events is always followed by a read that sees the checkpoint moved.
   */
  private async stillAt(name: string, persisted: LogPosition): Promise<boolean> {
    const [row] = await this.dataSource.query<{ position: string }[]>('SELECT position FROM reactor_checkpoints WHERE name = $1', [name]);
    return !row || row.position === persisted;
  }

  /**
   * Moves a reactor's checkpoint if it is still at `expected` (compare-and-set); answers whether
   * it moved. Reactors finishing batches together share one statement (ADR 0145): requests
   * queue while a write is in flight and go out together in the next one, each still answered
   * for its own row.
   */
  private moveCheckpoint(name: string, expected: LogPosition, to: LogPosition, handled: number): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.pendingMoves.push({ name, expected, to, handled, resolve, reject });
      this.flushing ??= this.flushMoves();
    });
  }

  private async flushMoves(): Promise<void> {
    // Let the reactors that finish in this turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pendingMoves.length) {
      // One request per reactor in a statement (a drain racing the loop may add a second one).
      const batch: PendingMove[] = [];
      const later: PendingMove[] = [];
      for (const move of this.pendingMoves) (batch.some((m) => m.name === move.name) ? later : batch).push(move);
      this.pendingMoves = later;
      try {
        const result: unknown = await this.dataSource.query(
          `UPDATE reactor_checkpoints c SET position = v.position, events_handled = c.events_handled + v.handled, updated_at = now()
           FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS v(name, expected, position, handled)
           WHERE c.name = v.name AND c.position = v.expected RETURNING c.name`,
          [batch.map((m) => m.name), batch.map((m) => m.expected), batch.map((m) => m.to), batch.map((m) => m.handled)],
        );
        const rows = returnedRows<{ name: string }>(result);
        for (const move of batch) move.resolve(rows.some((r) => r.name === move.name));
      } catch (error) {
        for (const move of batch) move.reject(error);
      }
    }
    this.flushing = undefined;
  }

  /** Handles everything up to the current head; for tests and one-off catch-ups. */
  async drain(name: string): Promise<number> {
    const reactor = this.reactors.find((r) => r.name === name);
    if (!reactor) throw new Error(`Unknown reactor ${name}`);
    await this.prepare(reactor);
    let total = 0;
    try {
      for (;;) {
        const step = await this.step(reactor);
        total += step.handled;
        if (step.idle) return total;
      }
    } finally {
      // Nothing is read ahead after an idle step; after a failure a read may still be in flight.
      await this.closeReadAheads(name);
    }
  }

  private loop(reactor: Reactor): FollowingLoop {
    return followLog(
      this.store,
      () => this.step(reactor),
      (error) => this.options.logger?.error({ reactor: reactor.name, err: error }, 'reactor batch failed; retrying'),
    );
  }

  async lag(name: string): Promise<ReactorLag | undefined> {
    return reactorLag(this.store, this.dataSource, name);
  }

  async status(): Promise<ReactorStatus[]> {
    const rows = await this.dataSource.query<{ name: string; position: string; events_handled: string }[]>(
      'SELECT name, position, events_handled FROM reactor_checkpoints WHERE name = ANY($1)',
      [this.reactors.map((r) => r.name)],
    );
    return this.reactors.map((r) => {
      const row = rows.find((x) => x.name === r.name);
      return {
        name: r.name,
        position: row?.position ?? START,
        eventsHandled: Number(row?.events_handled ?? 0),
        lastError: this.loops.get(r.name)?.lastError,
      };
    });
  }
}
