import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EngineLookups, ScheduleFirer } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { DATABASE, ENGINE_LOOKUPS, EVENT_STORE } from '@notify/platform';
import { ScheduleTimers } from '@notify/projections/schedules';
import { DueWorkLoop } from '../timers/due-work-loop';

/**
 * Keeps firing due schedule occurrences (ScheduleFirer) while the worker runs. Every worker runs
 * one; they claim disjoint batches. A restart fires what fell due meanwhile, within the catch-up
 * window (SCHEDULES_CATCH_UP_MS).
 */
@Injectable()
export class ScheduleFiringService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly firer: ScheduleFirer;
  private readonly loop: DueWorkLoop;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(DATABASE) database: Database,
    @Inject(ENGINE_LOOKUPS) lookups: EngineLookups,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) logger: Logger,
    runtime: ProjectionRuntime,
  ) {
    const timers = new ScheduleTimers(database.dataSource);
    const parallel = config.SCHEDULES_CONCURRENCY;
    this.firer = new ScheduleFirer(store, lookups, timers, {
      catchUpMs: config.SCHEDULES_CATCH_UP_MS,
      batchSize: config.SCHEDULES_BATCH_SIZE,
    });
    // A schedule this process's schedules projection takes in wakes the loop sooner.
    this.loop = new DueWorkLoop(runtime, logger, {
      projection: 'schedules',
      what: 'firing schedules',
      minGapMs: 50,
      // Several claims at once (disjoint: rows are leased): one decides while another waits on the database.
      round: async () => (await Promise.all(Array.from({ length: parallel }, () => this.firer.fireDue()))).some((n) => n > 0),
      nextDue: () => timers.nextDue(),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}
