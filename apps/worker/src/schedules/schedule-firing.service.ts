import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EngineLookups, ScheduleFirer } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Database } from '@notify/database';
import { EventStore, Sleeper } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { DATABASE, ENGINE_LOOKUPS, EVENT_STORE } from '@notify/platform';
import { ScheduleTimers } from '@notify/projections/schedules';

/** Shortest time between two polls when nothing is due sooner. */
const MIN_POLL_GAP_MS = 50;
/** Longest sleep: a schedule this process's schedules projection takes in wakes the loop sooner. */
const MAX_SLEEP_MS = 1000;

/**
 * Keeps firing due schedule occurrences (ScheduleFirer) while the worker runs. Every worker runs
 * one; they claim disjoint batches. A restart fires what fell due meanwhile, within the catch-up
 * window (SCHEDULES_CATCH_UP_MS).
 */
@Injectable()
export class ScheduleFiringService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly firer: ScheduleFirer;
  private readonly timers: ScheduleTimers;
  private readonly sleeper = new Sleeper();
  private readonly parallel: number;
  private stopped = false;
  private loop?: Promise<void>;
  private unlisten?: () => void;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(DATABASE) database: Database,
    @Inject(ENGINE_LOOKUPS) lookups: EngineLookups,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly runtime: ProjectionRuntime,
  ) {
    this.timers = new ScheduleTimers(database.dataSource);
    this.parallel = config.SCHEDULES_CONCURRENCY;
    this.firer = new ScheduleFirer(store, lookups, this.timers, {
      catchUpMs: config.SCHEDULES_CATCH_UP_MS,
      batchSize: config.SCHEDULES_BATCH_SIZE,
    });
  }

  onApplicationBootstrap(): void {
    this.unlisten = this.runtime.onApplied('schedules', () => this.sleeper.wake());
    this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    this.sleeper.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    let lastPoll = 0;
    let backlog = false;
    while (!this.stopped) {
      const since = Date.now() - lastPoll;
      if (!backlog && since < MIN_POLL_GAP_MS) await new Promise((r) => setTimeout(r, MIN_POLL_GAP_MS - since));
      if (this.stopped) break;
      lastPoll = Date.now();
      let pause = MAX_SLEEP_MS;
      try {
        // Several claims at once (disjoint: rows are leased): one decides while another waits on the database.
        const claimed = (await Promise.all(Array.from({ length: this.parallel }, () => this.firer.fireDue()))).reduce((a, b) => a + b, 0);
        backlog = claimed > 0;
        if (backlog) pause = 0;
        else {
          const next = await this.timers.nextDue();
          if (next) pause = Math.max(0, Math.min(MAX_SLEEP_MS, next.getTime() - Date.now()));
        }
      } catch (error) {
        this.logger.error({ err: error }, 'firing schedules failed; retrying');
        backlog = false;
      }
      if (pause > 0 && !this.stopped) await this.sleeper.sleep(Math.max(pause, 10));
    }
  }
}
