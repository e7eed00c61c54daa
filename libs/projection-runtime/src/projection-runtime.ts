import { LogPosition, LogReader, RecordedEvent, Sleeper, START, decodePosition } from '@notify/eventstore';
import { followLog, FollowingLoop } from './follow-log';
import { EventEmitter } from 'node:events';
import { DataSource, EntityManager } from 'typeorm';
import { Projection, handles } from './projection';
import { verifyRebuild, VerifyOptions, VerifyReport } from './verify-rebuild';

/**
 * The least a rebuild reads and applies at once: a live projection keeps its batches small for
 * latency, a rebuild has nothing to wait for and goes faster in bigger ones (bench:rebuild).
 */
const REBUILD_BATCH = 2000;

/** Skipping events that do not concern a projection is remembered in the checkpoint this often. */
const PERSIST_SKIPPED_EVERY_MS = 500;

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
  error(obj: object, msg: string): void;
}

interface CheckpointRow {
  position: string;
  version: number;
  events_applied: string;
}

/**
 * Runs every projection as its own catch-up loop over the log. Each batch is applied in one
 * transaction together with a compare-and-set of the checkpoint, so two workers racing on the
 * same projection, or a rebuild resetting it, can never apply a batch twice.
 */
export class ProjectionRuntime {
  private readonly checkpointMoved = new EventEmitter();
  private readonly loops = new Map<string, { stop: () => Promise<void>; lastError?: string }>();
  /**
   * Where each projection has read to, and what its checkpoint row says. They differ while
   * stretches of the log that hold nothing for the projection are skipped without a write.
   */
  private readonly cursor = new Map<string, { position: LogPosition; persisted: LogPosition; persistedAt: number }>();

  constructor(
    private readonly store: LogReader,
    private readonly dataSource: DataSource,
    readonly projections: readonly Projection[],
    private readonly options: { batchSize: number; logger?: RuntimeLogger },
  ) {
    this.checkpointMoved.setMaxListeners(0);
    const names = new Set<string>();
    for (const p of projections) {
      if (names.has(p.name)) throw new Error(`Two projections are named ${p.name}`);
      names.add(p.name);
    }
  }

  get(name: string): Projection {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`Unknown projection ${name}; known: ${this.projections.map((p) => p.name).join(', ')}`);
    return projection;
  }

  async start(): Promise<void> {
    for (const projection of this.projections) {
      await this.prepare(projection);
      this.loops.set(projection.name, this.loop(projection));
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.loops.values()].map((l) => l.stop()));
    this.loops.clear();
  }

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

  /** `projections rebuild <name>`: reset, then replay the log up to its current head. */
  async rebuild(name: string): Promise<{ events: number; ms: number }> {
    const projection = this.get(name);
    const started = Date.now();
    await this.prepare(projection);
    await this.reset(projection);
    const head = await this.store.headPosition();
    let events = 0;
    for (;;) {
      const step = await this.step(projection, Math.max(this.options.batchSize, REBUILD_BATCH));
      events += step.applied;
      if (step.position >= head && step.idle) break;
      if (step.idle) await new Promise((resolve) => setTimeout(resolve, 5));
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

  /** Applies at most one batch. Returns where the projection is and whether the log was exhausted. */
  async step(
    projection: Projection,
    maxCount = this.options.batchSize,
  ): Promise<{ applied: number; position: LogPosition; idle: boolean }> {
    let cursor = this.cursor.get(projection.name);
    if (!cursor) {
      const [row] = await this.dataSource.query<CheckpointRow[]>('SELECT position FROM projection_checkpoints WHERE name = $1', [
        projection.name,
      ]);
      const position = row?.position ?? START;
      cursor = { position, persisted: position, persistedAt: Date.now() };
      this.cursor.set(projection.name, cursor);
    }
    const from = cursor.position;
    // Read outside the transaction: with the embedded database a transaction must not wait on
    // another connection.
    const page = await this.store.readAll({
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
    const events = page.events.filter((e) => handles(projection, e));
    if (events.length === 0 && Date.now() - cursor.persistedAt < PERSIST_SKIPPED_EVERY_MS) {
      cursor.position = page.scannedTo;
      this.checkpointMoved.emit('moved');
      return { applied: 0, position: page.scannedTo, idle: false };
    }
    const persisted = cursor.persisted;
    const moved = await this.dataSource.transaction(async (tx) => {
      const locked = await tx.query<CheckpointRow[]>('SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE SKIP LOCKED', [
        projection.name,
      ]);
      if (locked.length === 0 || locked[0].position !== persisted) return false; // someone else moved it
      if (events.length) await projection.apply(events, tx);
      await tx.query(
        `UPDATE projection_checkpoints SET position = $2, events_applied = events_applied + $3, updated_at = now() WHERE name = $1`,
        [projection.name, page.scannedTo, events.length],
      );
      return true;
    });
    // Another runner (a second worker, or a rebuild) moved the checkpoint first: start over from it.
    if (!moved) {
      this.cursor.delete(projection.name);
      return { applied: 0, position: from, idle: true };
    }
    this.cursor.set(projection.name, { position: page.scannedTo, persisted: page.scannedTo, persistedAt: Date.now() });
    this.checkpointMoved.emit('moved');
    return { applied: events.length, position: page.scannedTo, idle: false };
  }

  private loop(projection: Projection): FollowingLoop {
    return followLog(
      this.store,
      () => this.step(projection),
      (error) => this.options.logger?.error({ projection: projection.name, err: error }, 'projection batch failed; retrying'),
    );
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
        running: this.loops.has(p.name),
        lastError: this.loops.get(p.name)?.lastError,
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
   * in-process moves cut the wait short.
   */
  async waitFor(position: LogPosition, events: readonly Pick<RecordedEvent, 'type' | 'streamId'>[], timeoutMs: number): Promise<boolean> {
    const names = this.projections.filter((p) => events.some((e) => handles(p, e))).map((p) => p.name);
    if (names.length === 0) return true;
    const deadline = Date.now() + timeoutMs;
    const sleeper = new Sleeper();
    const onMove = () => sleeper.wake();
    this.checkpointMoved.on('moved', onMove);
    try {
      let pause = 2;
      // A projection running in this process knows exactly how far it has got: everything before
      // its cursor that concerns it is applied (what did not concern it was skipped).
      const localDone = () => names.every((n) => this.loops.has(n) && (this.cursor.get(n)?.position ?? START) >= position);
      for (;;) {
        if (localDone()) return true;
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
    }
  }
}

export type { EntityManager };
