import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ProjectionRebuildT } from '@notify/contracts';
import { DomainError, resourceMissing } from '@notify/domain';
import { ProjectionRuntime } from '@notify/projection-runtime';

interface Rebuild {
  status: ProjectionRebuildT;
  startedMs: number;
  done: Promise<void>;
}

/**
 * Rebuilds started over HTTP (ADR 0211), one at a time per read model, run by this process's
 * projection runtime as `notify projections rebuild` runs them; their progress is kept here, in
 * the process that runs them, until the next rebuild of the same read model.
 */
@Injectable()
export class ProjectionRebuilds implements OnApplicationShutdown {
  private readonly rebuilds = new Map<string, Rebuild>();
  /** The clock progress is measured by. */
  now: () => number = Date.now;

  constructor(private readonly runtime: ProjectionRuntime) {}

  start(name: string): ProjectionRebuildT {
    if (!this.runtime.projections.some((p) => p.name === name)) throw resourceMissing('projection');
    if (this.rebuilds.get(name)?.status.state === 'running')
      throw new DomainError('rebuild_running', `${name} is being rebuilt already`, 'conflict');
    const startedMs = this.now();
    const status: ProjectionRebuildT = {
      projection: name,
      state: 'running',
      started_at: new Date(startedMs).toISOString(),
      finished_at: null,
      events_done: 0,
      events_total: 0,
      events_applied: 0,
      events_per_second: 0,
      error: null,
    };
    const rebuild: Rebuild = { status, startedMs, done: Promise.resolve() };
    rebuild.done = this.runtime
      .rebuild(name, {
        onProgress: ({ events, done, total }) => {
          status.events_done = done;
          status.events_total = total;
          status.events_applied = events;
          status.events_per_second = this.rate(rebuild);
        },
      })
      .then(
        () => this.finish(rebuild, 'done', null),
        (error: unknown) => this.finish(rebuild, 'failed', (error as Error).message),
      );
    this.rebuilds.set(name, rebuild);
    return { ...status };
  }

  get(name: string): ProjectionRebuildT {
    const rebuild = this.rebuilds.get(name);
    if (!rebuild) throw resourceMissing('projection rebuild');
    return { ...rebuild.status };
  }

  private finish(rebuild: Rebuild, state: 'done' | 'failed', error: string | null): void {
    rebuild.status.state = state;
    rebuild.status.error = error;
    rebuild.status.finished_at = new Date(this.now()).toISOString();
    rebuild.status.events_per_second = this.rate(rebuild);
  }

  private rate(rebuild: Rebuild): number {
    const seconds = (this.now() - rebuild.startedMs) / 1000;
    return seconds > 0 ? Math.round(rebuild.status.events_done / seconds) : 0;
  }

  /** A rebuild under way is finished before the process lets go of the database. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.rebuilds.values()].map((r) => r.done));
  }
}
