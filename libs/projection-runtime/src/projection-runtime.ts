import { LogFilter, LogPosition, LogReader, RecordedEvent, Sleeper, START, decodePosition } from '@notify/eventstore';
import { followLog, FollowingLoop } from './follow-log';
import { EventEmitter } from 'node:events';
import { DataSource, EntityManager } from 'typeorm';
import { Projection, handles } from './projection';
import { returnedRows } from './returning';
import { DeferredWrites } from './deferred-writes';
import { ReadAhead } from './read-ahead';
import { verifyRebuild, VerifyOptions, VerifyReport } from './verify-rebuild';

/**
 * The least a rebuild reads and applies at once: a live projection keeps its batches small for
 * latency, a rebuild has nothing to wait for and goes faster in bigger ones (bench:rebuild).
 */
const REBUILD_BATCH = 2000;

/** Skipping events that do not concern a projection is remembered in the checkpoint this often. */
const PERSIST_SKIPPED_EVERY_MS = 500;
/**
 * The most events a transaction may apply and still send its last write with the COMMIT (ADR
 * 0259): a few triggers' worth. Above it the write goes on its own (ADR 0260).
 */
export const DEFER_UP_TO_EVENTS = 64;
/** How long `waitFor` trusts a running loop's cursors before it also polls the checkpoint table (and then between polls). */
const LOCAL_FIRST_MS = 100;
/** How long a background lane may wait for other work at a stretch (ADR 0286), unless told otherwise. */
export const BACKGROUND_MAX_DEFER_MS = 30_000;

export interface ProjectionStatus {
  name: string;
  version: number;
  position: LogPosition;
  eventsApplied: number;
  running: boolean;
  lastError?: string;
}

export interface RuntimeLogger {
  info(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface CheckpointRow {
  position: string;
  version: number;
  events_applied: string;
}

interface Cursor {
  position: LogPosition;
  persisted: LogPosition;
  persistedAt: number;
}

/** A projection whose batch failed inside a group runs on its own (with a backoff) until a batch of its own succeeds. */
interface Isolation {
  retryAt: number;
  backoff: number;
  lastError?: string;
}

/** Raised inside a group's transaction to roll it back and name the projection at fault. */
class ProjectionFailed extends Error {
  constructor(
    readonly projection: Projection,
    readonly error: unknown,
  ) {
    super(`projection ${projection.name} failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** A checkpoint of the batch was held or moved by another runner when the lock was taken late (ADR 0268). */
class CheckpointsTaken extends Error {
  constructor() {
    super('a projection checkpoint was taken by another runner');
  }
}

/** A filter that lets through every event any of `projections` reads (each still filters its own). */
export function unionFilter(projections: readonly Projection[]): LogFilter {
  const all = <T>(pick: (p: Projection) => readonly T[] | undefined): T[] | undefined =>
    projections.every((p) => pick(p)?.length) ? [...new Set(projections.flatMap((p) => pick(p) ?? []))] : undefined;
  const eventTypes = all((p) => p.filter.eventTypes);
  const streamPrefixes = all((p) => p.filter.streamPrefixes);
  return { ...(eventTypes ? { eventTypes } : {}), ...(streamPrefixes ? { streamPrefixes } : {}) };
}

/**
 * Runs the projections over the log as one catch-up loop (ADR 0145). The projections whose
 * checkpoints are at the same position form a group: one page of the log is read for the group
 * and applied to all of them in one transaction, which first locks their checkpoint rows
 * (`FOR UPDATE SKIP LOCKED`, then a compare of each position) and ends with one statement that
 * moves all their checkpoints. Two workers racing, or a rebuild resetting a projection, can
 * therefore never apply a batch twice, per projection as before. A projection with nothing in
 * the page only moves its cursor in memory (written later, with a batch or after a while). A
 * projection whose batch throws rolls the group's transaction back; the others go on without
 * it at once, and it runs batches of its own, with a growing backoff, until one succeeds.
 */
export class ProjectionRuntime {
  private readonly checkpointMoved = new EventEmitter();
  /** Emits a projection's name after this runtime applied events to it. */
  private readonly appliedTo = new EventEmitter();
  private loopState?: FollowingLoop;
  private readonly isolated = new Map<string, Isolation>();
  /** Projections this runtime is rebuilding: its own loop leaves them to the rebuild meanwhile. */
  private readonly rebuilding = new Set<string>();
  /**
   * Where each projection has read to, and what its checkpoint row says. They differ while
   * stretches of the log that hold nothing for the projection are skipped without a write.
   * A cursor object is replaced, never reused: a step that finds another one in the map (a reset
   * or a lost race happened meanwhile) leaves it alone.
   */
  private readonly cursor = new Map<string, Cursor>();
  /** Lanes whose last step read at least half a page (a backlog): a background lane waits for them. */
  private readonly lanesBehind = new Set<string>();
  /**
   * Per background lane: since when it has waited for other work, or `catching-up` once it waited
   * as long as it may (it then runs until it is caught up, and may wait again after). ADR 0286.
   */
  private readonly backgroundWait = new Map<string, number | 'catching-up'>();
  /** Callers of `waitFor` now waiting, per projection: a background lane someone waits for does not wait. */
  private readonly waiters = new Map<string, number>();
  /** Other work the background lanes yield to while it has a backlog (the run executor). */
  private othersBehind: () => boolean = () => false;
  /** Steps a background lane skipped to let other work go first (the tests read it). */
  backgroundSkips = 0;

  constructor(
    private readonly store: LogReader,
    private readonly dataSource: DataSource,
    readonly projections: readonly Projection[],
    private readonly options: {
      batchSize: number;
      logger?: RuntimeLogger;
      /** How long `waitFor` trusts this runtime's running loop before (and between) polls of the checkpoint table (default 100 ms). */
      localFirstMs?: number;
      /**
       * The longest a background lane waits for other work at a stretch before it catches up
       * anyway (default {@link BACKGROUND_MAX_DEFER_MS}; 0: background lanes never wait; ADR 0286).
       */
      backgroundMaxDeferMs?: number;
      /** The clock of the background lanes' waits (default `Date.now`). */
      now?: () => number;
    },
  ) {
    this.checkpointMoved.setMaxListeners(0);
    this.appliedTo.setMaxListeners(0);
    const names = new Set<string>();
    for (const p of projections) {
      if (names.has(p.name)) throw new Error(`Two projections are named ${p.name}`);
      names.add(p.name);
    }
  }

  /** Background lanes also yield while `behind` answers true (the worker's run executor with a backlog). */
  yieldTo(behind: () => boolean): void {
    this.othersBehind = behind;
  }

  get(name: string): Projection {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`Unknown projection ${name}; known: ${this.projections.map((p) => p.name).join(', ')}`);
    return projection;
  }

  async start(): Promise<void> {
    if (this.loopState) return;
    this.stopping = false;
    for (const projection of this.projections) await this.prepare(projection);
    this.loopState = followLog(
      this.store,
      () => this.stepAll(),
      (error) => this.options.logger?.error({ err: error }, 'projection batch failed; retrying'),
    );
  }

  async stop(): Promise<void> {
    const loop = this.loopState;
    this.loopState = undefined;
    // Waits for read models end now: nothing here moves a checkpoint any more, and a reactor
    // waiting out its timeout held the whole shutdown past its bound (ci, embedded-boot).
    this.stopping = true;
    this.checkpointMoved.emit('moved');
    await loop?.stop();
  }

  /** Set by stop(): `waitFor` answers false at once instead of waiting for checkpoints. */
  private stopping = false;

  /** Creates the checkpoint row; a version change empties the read model so it is rebuilt. */
  private async prepare(projection: Projection): Promise<void> {
    await this.dataSource.query(`INSERT INTO projection_checkpoints (name, version) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
      projection.name,
      projection.version,
    ]);
    const [row] = await this.dataSource.query<CheckpointRow[]>('SELECT version FROM projection_checkpoints WHERE name = $1', [
      projection.name,
    ]);
    if (row.version !== projection.version) {
      this.options.logger?.info(
        { projection: projection.name, from: row.version, to: projection.version },
        'projection version changed; rebuilding',
      );
      await this.reset(projection);
    }
  }

  /** Empties the read model and rewinds the checkpoint in one transaction. */
  async reset(projection: Projection): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [projection.name]);
      if (projection.tables.length) await tx.query(`TRUNCATE ${projection.tables.map((t) => `"${t}"`).join(', ')}`);
      await tx.query(
        `UPDATE projection_checkpoints SET position = '', version = $2, events_applied = 0, updated_at = now() WHERE name = $1`,
        [projection.name, projection.version],
      );
    });
    this.cursor.delete(projection.name);
    this.checkpointMoved.emit('moved');
  }

  /**
   * Every projection back to the start inside a transaction that replaces the log (an import,
   * ADR 0250): their tables emptied and their checkpoints at the start, committed with the new log.
   * A runner in any process that had read the old log then finds its checkpoint moved and starts
   * over from it, rather than applying the new log on top of rows of the old one.
   */
  async resetAllIn(query: (sql: string, params?: unknown[]) => Promise<unknown>): Promise<void> {
    const names = this.projections.map((p) => p.name);
    // The checkpoints first, in name order, as a runner locks them (it skips the locked ones).
    await query('SELECT 1 FROM projection_checkpoints WHERE name = ANY($1) ORDER BY name FOR UPDATE', [names]);
    const tables = [...new Set(this.projections.flatMap((p) => p.tables))];
    if (tables.length) await query(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')}`);
    await query(`UPDATE projection_checkpoints SET position = '', events_applied = 0, updated_at = now() WHERE name = ANY($1)`, [names]);
  }

  /**
   * `projections rebuild <name>`: reset, then replay the log up to its current head. `onProgress`
   * hears after each batch how far through the log it is (`done` of `total`, in log positions).
   */
  async rebuild(
    name: string,
    options: { onProgress?: (progress: { events: number; done: number; total: number }) => void } = {},
  ): Promise<{ events: number; ms: number }> {
    const projection = this.get(name);
    const started = Date.now();
    this.rebuilding.add(name);
    try {
      return await this.rebuildFromStart(projection, started, options);
    } finally {
      this.rebuilding.delete(name);
    }
  }

  private async rebuildFromStart(
    projection: Projection,
    started: number,
    options: { onProgress?: (progress: { events: number; done: number; total: number }) => void },
  ): Promise<{ events: number; ms: number }> {
    await this.prepare(projection);
    await this.reset(projection);
    // Everything committed before the rebuild began, not only what reads serve yet: the visible
    // bound can sit below a commit for a moment (another database's transaction just ended), and
    // a rebuild stopping there would leave out events written just before it (idle steps wait).
    const head = await this.store.newestPosition();
    const maxCount = Math.max(this.options.batchSize, REBUILD_BATCH);
    // The next batch is read while this one is applied.
    const readAhead = new ReadAhead((after) =>
      this.store.readAll({ after, maxCount, filter: projection.filter, reader: `projection:${projection.name}` }),
    );
    const total = Number(decodePosition(head).minor);
    let events = 0;
    options.onProgress?.({ events, done: 0, total });
    try {
      for (;;) {
        const step = await this.step(projection, maxCount, readAhead);
        events += step.applied;
        options.onProgress?.({ events, done: Math.min(total, Number(decodePosition(step.position).minor)), total });
        if (step.position >= head && step.idle) break;
        if (step.idle) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      await readAhead.close();
    }
    return { events, ms: Date.now() - started };
  }

  /** `projections rebuild --verify <name>`: a rebuild into shadow tables, compared row by row with the live ones. */
  verify(name: string, options: Omit<VerifyOptions, 'batchSize'> = {}): Promise<VerifyReport> {
    return verifyRebuild(this.store, this.dataSource, this.get(name), {
      batchSize: Math.max(this.options.batchSize, REBUILD_BATCH),
      ...options,
    });
  }

  /** The cursors of `projections`, read from their checkpoints (one query) where this process has none yet. */
  private async cursors(projections: readonly Projection[]): Promise<Map<string, Cursor>> {
    const missing = projections.filter((p) => !this.cursor.has(p.name)).map((p) => p.name);
    if (missing.length) {
      const rows = await this.dataSource.query<{ name: string; position: string }[]>(
        'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1)',
        [missing],
      );
      const now = Date.now();
      for (const name of missing) {
        if (this.cursor.has(name)) continue;
        const position = rows.find((r) => r.name === name)?.position ?? START;
        this.cursor.set(name, { position, persisted: position, persistedAt: now });
      }
    }
    return new Map(projections.map((p) => [p.name, this.cursor.get(p.name)!]));
  }

  /** Replaces a cursor unless a reset or a lost race replaced it meanwhile. */
  private advance(name: string, seen: Cursor, next: Cursor | undefined): void {
    if (this.cursor.get(name) !== seen) return;
    if (next) this.cursor.set(name, next);
    else this.cursor.delete(name);
  }

  /**
   * One projection on its own: applies at most one batch. Rebuilds and isolated projections
   * use it. Returns where the projection is and whether the log was exhausted.
   */
  async step(
    projection: Projection,
    maxCount = this.options.batchSize,
    readAhead?: ReadAhead,
  ): Promise<{ applied: number; position: LogPosition; idle: boolean }> {
    const cursor = (await this.cursors([projection])).get(projection.name)!;
    const from = cursor.position;
    // Read outside the transaction: with the embedded database a transaction must not wait on
    // another connection.
    const page = readAhead
      ? await readAhead.page(from)
      : await this.store.readAll({
          after: from,
          maxCount,
          filter: projection.filter,
          reader: `projection:${projection.name}`,
        });
    if (page.events.length === 0 && page.scannedTo <= from) {
      // Caught up: if skipped progress has not been written for a while, write it now.
      if (cursor.position === cursor.persisted || Date.now() - cursor.persistedAt < PERSIST_SKIPPED_EVERY_MS)
        return { applied: 0, position: from, idle: true };
    }
    const to = page.scannedTo > from ? page.scannedTo : from;
    const events = page.events.filter((e) => handles(projection, e));
    if (events.length === 0 && Date.now() - cursor.persistedAt < PERSIST_SKIPPED_EVERY_MS) {
      cursor.position = to;
      this.checkpointMoved.emit('moved');
      return { applied: 0, position: to, idle: false };
    }
    const moved = await this.applyInTransaction([{ projection, expected: cursor.persisted, to, events }]);
    // Another runner (a second worker, or a rebuild) moved the checkpoint first: start over from it.
    if (moved.length === 0) {
      this.advance(projection.name, cursor, undefined);
      return { applied: 0, position: from, idle: true };
    }
    this.advance(projection.name, cursor, { position: to, persisted: to, persistedAt: Date.now() });
    this.checkpointMoved.emit('moved');
    if (events.length) this.appliedTo.emit(projection.name, events);
    return { applied: events.length, position: to, idle: false };
  }

  /**
   * Calls `listener` each time this runtime has applied events to the projection (not when it
   * only skipped past events of no concern to it). A poller of a read model (timers, schedules)
   * looks again then, instead of after every append to the log. The listener is given the
   * events applied, so it can tell whether they could have brought it anything (ADR 0251).
   */
  onApplied(name: string, listener: (events: readonly RecordedEvent[]) => void): () => void {
    this.appliedTo.on(name, listener);
    return () => this.appliedTo.off(name, listener);
  }

  /**
   * One transaction for several projections' batches: one statement locks their checkpoints
   * (skipping rows another runner holds) and moves those still at the expected position, then
   * the batches of those are applied. Answers the names it moved. A batch that
   * throws rolls everything back and is reported as ProjectionFailed.
   */
  private async applyInTransaction(
    work: readonly { projection: Projection; expected: LogPosition; to: LogPosition; events: readonly RecordedEvent[] }[],
    deferring = true,
  ): Promise<string[]> {
    const names = work.map((w) => w.projection.name);
    if (work.every((w) => w.events.length === 0)) {
      // Only skipped stretches to remember: a compare-and-set needs no lock and no transaction.
      return this.moveCheckpoints(this.dataSource, work);
    }
    // Under load a batch is large and its round trip is shared by many events, while writing its
    // values in as literals costs more than the round trip saves: only small batches defer.
    if (work.reduce((n, w) => n + w.events.length, 0) > DEFER_UP_TO_EVENTS) deferring = false;
    const runner = this.dataSource.createQueryRunner();
    // node-postgres' client: a statement without parameters goes out in the simple protocol,
    // which takes several statements in one round trip.
    const client = (await runner.connect()) as { query(text: string): Promise<unknown>; escapeLiteral(value: string): string };
    const texts = (values: readonly string[]) => `ARRAY[${values.map((v) => client.escapeLiteral(v)).join(', ')}]::text[]`;
    // Lock the checkpoints (skipping rows another runner holds, in name order) and move those
    // still where this runner left them, in one statement: the batches commit with the move or
    // are rolled back with it. The values are written in as literals (ADR 0256).
    const lockAndMove = `WITH locked AS (
           SELECT name, position FROM projection_checkpoints WHERE name = ANY(${texts(names)}) ORDER BY name FOR UPDATE SKIP LOCKED
         ), moved AS (
         UPDATE projection_checkpoints c SET position = v.position, events_applied = c.events_applied + v.applied, updated_at = now()
         FROM locked l, unnest(${texts(names)}, ${texts(work.map((w) => w.expected))}, ${texts(work.map((w) => w.to))},
                               ARRAY[${work.map((w) => Math.trunc(w.events.length)).join(', ')}]::bigint[]) AS v(name, expected, position, applied)
         WHERE c.name = l.name AND v.name = l.name AND l.position = v.expected RETURNING c.name)`;
    let begun = false;
    /** BEGIN with the lock and move, in one round trip: answers the names moved. */
    const begin = async (): Promise<Set<string>> => {
      begun = true;
      const results = (await client.query(`BEGIN;\n${lockAndMove} SELECT name FROM moved`)) as { rows: { name: string }[] }[];
      return new Set(results[1].rows.map((r) => r.name));
    };
    // With deferring, the lock is taken when a projection first sends a statement, and only if
    // it moves every checkpoint (else the batches go again as below); a batch whose projections
    // only defer sends BEGIN, the lock, the writes and COMMIT in one message (ADR 0268).
    let lostRace = false;
    const beginOwningAll = async () => {
      if ((await begin()).size < names.length) {
        lostRace = true;
        throw new CheckpointsTaken();
      }
    };
    // The batches' last writes, deferred (`deferWrite`), go with the COMMIT in one round trip (ADR 0259).
    const deferred = deferring ? new DeferredWrites(runner.manager, beginOwningAll) : undefined;
    let sendAgain = false;
    try {
      const owned = deferred ? work : await begin().then((moved) => work.filter((w) => moved.has(w.projection.name)));
      for (const w of owned) {
        if (!w.events.length) continue;
        try {
          await w.projection.apply(w.events, deferred?.manager ?? runner.manager);
        } catch (error) {
          if (lostRace) throw new CheckpointsTaken();
          throw new ProjectionFailed(w.projection, error);
        }
      }
      // Even if a projection went on after its statement was refused.
      if (lostRace) throw new CheckpointsTaken();
      const last = deferred?.size ? deferred.text((value) => client.escapeLiteral(value)) : undefined;
      if (deferred && !begun && (deferred.size === 0 || last !== undefined)) {
        // Nothing sent yet: all of it in one message, refused by the server unless every
        // checkpoint moved (projection_checkpoints_all_moved raises).
        begun = true;
        try {
          await client.query(
            `BEGIN;\n${lockAndMove} SELECT projection_checkpoints_all_moved((SELECT count(*) FROM moved), ${names.length});\n${last ? `${last};\n` : ''}COMMIT`,
          );
        } catch {
          // A checkpoint taken by another runner, or a write refused (which is not said), or the
          // connection lost: roll back and apply the batches again the long way, where ownership
          // is settled first and a failing projection is named (or a lost connection retried).
          await client.query('ROLLBACK').catch(() => undefined);
          sendAgain = true;
        }
      } else {
        if (deferred && !begun) await beginOwningAll();
        if (deferred?.size && last === undefined) await deferred.flush();
        if (last === undefined) await client.query('COMMIT');
        else {
          try {
            await client.query(`${last};\nCOMMIT`);
          } catch {
            // Which of the writes failed is not said: roll back and apply the batches again without
            // deferring, where a failing projection is named (or a lost connection retried as ever).
            await client.query('ROLLBACK').catch(() => undefined);
            sendAgain = true;
          }
        }
      }
      if (!sendAgain) return owned.map((w) => w.projection.name);
    } catch (error) {
      if (begun) await client.query('ROLLBACK').catch(() => undefined);
      // Another runner holds or moved a checkpoint: the long way settles which are this runner's.
      if (!(error instanceof CheckpointsTaken)) throw error;
    } finally {
      deferred?.close();
      await runner.release();
    }
    return this.applyInTransaction(work, false);
  }

  /** Moves the checkpoints that are still where `expected` says, in one statement; answers which moved. */
  private async moveCheckpoints(
    db: Pick<EntityManager, 'query'>,
    work: readonly { projection: Projection; expected: LogPosition; to: LogPosition; events: readonly RecordedEvent[] }[],
  ): Promise<string[]> {
    const result: unknown = await db.query(
      `UPDATE projection_checkpoints c SET position = v.position, events_applied = c.events_applied + v.applied, updated_at = now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS v(name, expected, position, applied)
       WHERE c.name = v.name AND c.position = v.expected RETURNING c.name`,
      [work.map((w) => w.projection.name), work.map((w) => w.expected), work.map((w) => w.to), work.map((w) => w.events.length)],
    );
    return returnedRows<{ name: string }>(result).map((r) => r.name);
  }

  /**
   * What the loop runs: the isolated projections on their own (when their backoff allows), then,
   * in each lane (the lanes beside each other), one page for each group of projections at the
   * same position, the furthest behind first. A group behind reads no further than the next
   * group's position in its lane, so that it joins it.
   */
  async stepAll(): Promise<{ idle: boolean }> {
    let idle = true;
    for (const projection of this.projections) {
      const isolation = this.isolated.get(projection.name);
      if (!isolation || isolation.retryAt > Date.now() || this.rebuilding.has(projection.name)) continue;
      try {
        const step = await this.step(projection);
        this.isolated.delete(projection.name);
        if (!step.idle) idle = false;
      } catch (error) {
        isolation.lastError = (error as Error).message;
        isolation.backoff = Math.min(Math.max(isolation.backoff * 2, 200), 10_000);
        isolation.retryAt = Date.now() + isolation.backoff;
        this.options.logger?.error({ projection: projection.name, err: error }, 'projection batch failed; retrying');
      }
    }
    const active = this.projections.filter((p) => !this.isolated.has(p.name) && !this.rebuilding.has(p.name));
    const cursors = await this.cursors(active);
    const lanes = new Map<string, Map<LogPosition, Projection[]>>();
    for (const p of active) {
      const lane = lanes.get(p.lane ?? '') ?? new Map<LogPosition, Projection[]>();
      lanes.set(p.lane ?? '', lane);
      const at = cursors.get(p.name)!.position;
      lane.set(at, [...(lane.get(at) ?? []), p]);
    }
    const steps = await Promise.all(
      [...lanes].map(async ([name, groups]) => {
        const members = [...groups.values()].flat();
        // Waiting counts as idle: the others' work keeps the loop going, and with none left the
        // loop's next wake-up (an append, or its idle poll) looks again.
        if (this.backgroundWaits(name, members)) return true;
        let laneIdle = true;
        let backlog = false;
        const positions = [...groups.keys()].sort();
        for (let i = 0; i < positions.length; i++) {
          const group = groups.get(positions[i])!;
          const step = await this.stepGroup(
            group.map((p) => ({ projection: p, cursor: cursors.get(p.name)! })),
            positions[i + 1],
          );
          if (!step.idle) laneIdle = false;
          if (step.backlog) backlog = true;
        }
        if (backlog) this.lanesBehind.add(name);
        else this.lanesBehind.delete(name);
        // Caught up: the next backlog may make it wait again, for as long as before.
        if (laneIdle) this.backgroundWait.delete(name);
        return laneIdle;
      }),
    );
    if (steps.includes(false)) idle = false;
    return { idle };
  }

  /**
   * Whether a lane of background projections skips this step (ADR 0286): while another lane read at
   * least half a page in its last step, or the work given to `yieldTo` has a backlog, and nobody waits for one of
   * its projections, it waits, at most `backgroundMaxDeferMs` at a stretch; then it runs until
   * it is caught up, however busy the rest is, so what it shows is never further behind than that
   * bound plus its own catching up.
   */
  private backgroundWaits(lane: string, members: readonly Projection[]): boolean {
    if (!members.every((p) => p.background)) return false;
    const maxDefer = this.options.backgroundMaxDeferMs ?? BACKGROUND_MAX_DEFER_MS;
    const othersBehind = [...this.lanesBehind].some((l) => l !== lane) || this.othersBehind();
    if (maxDefer <= 0 || !othersBehind || members.some((p) => (this.waiters.get(p.name) ?? 0) > 0)) return false;
    const now = (this.options.now ?? Date.now)();
    const since = this.backgroundWait.get(lane);
    if (since === 'catching-up') return false;
    if (since === undefined) this.backgroundWait.set(lane, now);
    else if (now - since >= maxDefer) {
      this.backgroundWait.set(lane, 'catching-up');
      return false;
    }
    this.backgroundSkips++;
    return true;
  }

  /** One page of the log for projections at the same position, applied in one transaction. */
  private async stepGroup(
    members: readonly { projection: Projection; cursor: Cursor }[],
    until: LogPosition | undefined,
  ): Promise<{ idle: boolean; backlog: boolean }> {
    const from = members[0].cursor.position;
    const read = await this.store.readAll({
      after: from,
      maxCount: this.options.batchSize,
      filter: unionFilter(members.map((m) => m.projection)),
      reader: `projection:${members[0].projection.name}`,
    });
    // A group behind stops at the next group's position: the page holds every event up to its
    // scannedTo, so the events up to `until` are all there.
    const page =
      until !== undefined && read.scannedTo > until ? { events: read.events.filter((e) => e.position <= until), scannedTo: until } : read;
    const caughtUp = page.events.length === 0 && page.scannedTo <= from;
    // A backlog: at least half a page came in while the last one was handled (ADR 0286).
    const backlog = read.events.length * 2 >= this.options.batchSize;
    const to = page.scannedTo > from ? page.scannedTo : from;
    const now = Date.now();
    const work = members.map((m) => ({
      ...m,
      expected: m.cursor.persisted,
      to,
      events: page.events.filter((e) => handles(m.projection, e)),
    }));
    // Nothing for a projection in this page: remember how far it looked without writing, unless
    // that was not written for a while.
    const writes = work.filter(
      (w) => w.events.length > 0 || (now - w.cursor.persistedAt >= PERSIST_SKIPPED_EVERY_MS && w.cursor.persisted !== to),
    );
    for (const w of work) if (!writes.includes(w)) w.cursor.position = to;
    if (writes.length === 0) {
      if (!caughtUp) this.checkpointMoved.emit('moved');
      return { idle: caughtUp, backlog };
    }
    let moved: string[];
    try {
      moved = await this.applyInTransaction(writes);
    } catch (error) {
      if (!(error instanceof ProjectionFailed)) throw error;
      // Roll back all, go on without the one at fault at once; it runs on its own for a while.
      this.isolated.set(error.projection.name, { retryAt: 0, backoff: 0, lastError: error.message });
      this.options.logger?.error(
        { projection: error.projection.name, err: error.error },
        'projection batch failed; the projection runs on its own until it succeeds',
      );
      return { idle: false, backlog };
    }
    const at = Date.now();
    for (const w of writes) {
      // Not moved: another runner (a second worker, or a rebuild) moved it first; start over from it.
      this.advance(
        w.projection.name,
        w.cursor,
        moved.includes(w.projection.name) ? { position: to, persisted: to, persistedAt: at } : undefined,
      );
    }
    this.checkpointMoved.emit('moved');
    for (const w of writes) if (w.events.length && moved.includes(w.projection.name)) this.appliedTo.emit(w.projection.name, w.events);
    return { idle: caughtUp && moved.length === writes.length, backlog };
  }

  async status(): Promise<ProjectionStatus[]> {
    const rows = await this.dataSource.query<(CheckpointRow & { name: string })[]>(
      'SELECT name, version, position, events_applied FROM projection_checkpoints WHERE name = ANY($1)',
      [this.projections.map((p) => p.name)],
    );
    return this.projections.map((p) => {
      const row = rows.find((r) => r.name === p.name);
      return {
        name: p.name,
        version: p.version,
        position: row?.position ?? START,
        eventsApplied: Number(row?.events_applied ?? 0),
        running: this.loopState !== undefined,
        lastError: this.isolated.get(p.name)?.lastError ?? this.loopState?.lastError,
      };
    });
  }

  /** Events in the log not yet seen by the slowest projection (from the human-facing positions). */
  async lag(): Promise<number> {
    const head = decodePosition(await this.store.headPosition()).minor;
    const statuses = await this.status();
    const slowest = statuses.reduce((min, s) => (s.position < min ? s.position : min), statuses[0]?.position ?? START);
    const behind = head - decodePosition(slowest).minor;
    return Number(behind > 0n ? behind : 0n);
  }

  /**
   * Read-your-writes: resolves once every projection that reads any of `events` has moved its
   * checkpoint to or past `position`. Works across processes by polling the checkpoint table;
   * in-process moves cut the wait short. While this runtime's loop runs, its cursors answer
   * first and the table is polled only every `localFirstMs` (100 ms): a runtime that lost a page
   * to another worker reads that worker's checkpoint on its next step, so the table matters only
   * when this runtime is slow to notice, and a lagging projection of this process is just as far
   * in the table. The engine's reactors wait here for every batch (statements per trigger,
   * BENCHMARKS.md issue 19).
   */
  async waitFor(
    position: LogPosition,
    events: readonly Pick<RecordedEvent, 'type' | 'streamId'>[],
    timeoutMs: number,
    /** Only these of the projections that read `events` (a reader that queries one read model waits for that one). */
    only?: readonly string[],
  ): Promise<boolean> {
    const names = this.projections
      .filter((p) => events.some((e) => handles(p, e)) && (only === undefined || only.includes(p.name)))
      .map((p) => p.name);
    if (names.length === 0) return true;
    const deadline = Date.now() + timeoutMs;
    const sleeper = new Sleeper();
    const onMove = () => sleeper.wake();
    this.checkpointMoved.on('moved', onMove);
    // A background lane does not wait for other work while someone waits for it.
    for (const n of names) this.waiters.set(n, (this.waiters.get(n) ?? 0) + 1);
    try {
      let pause = 2;
      // A projection running in this process knows exactly how far it has got: everything before
      // its cursor that concerns it is applied (what did not concern it was skipped).
      const localDone = () => this.loopState !== undefined && names.every((n) => (this.cursor.get(n)?.position ?? START) >= position);
      const localFirstMs = this.options.localFirstMs ?? LOCAL_FIRST_MS;
      let pollFrom = this.loopState !== undefined ? Date.now() + localFirstMs : 0;
      for (;;) {
        if (localDone()) return true;
        if (this.stopping) return false;
        if (Date.now() < pollFrom && Date.now() < deadline) {
          await sleeper.sleep(Math.min(pause, pollFrom - Date.now(), deadline - Date.now()));
          pause = Math.min(pause * 2, 50);
          continue;
        }
        if (this.loopState !== undefined) pollFrom = Date.now() + localFirstMs;
        const rows = await this.dataSource.query<{ position: string }[]>(
          'SELECT position FROM projection_checkpoints WHERE name = ANY($1)',
          [names],
        );
        if (rows.length === names.length && rows.every((r) => r.position >= position)) return true;
        const left = deadline - Date.now();
        if (left <= 0) return false;
        await sleeper.sleep(Math.min(pause, left));
        pause = Math.min(pause * 2, 50);
      }
    } finally {
      this.checkpointMoved.off('moved', onMove);
      for (const n of names) {
        const left = (this.waiters.get(n) ?? 1) - 1;
        if (left > 0) this.waiters.set(n, left);
        else this.waiters.delete(n);
      }
    }
  }
}

export type { EntityManager };
