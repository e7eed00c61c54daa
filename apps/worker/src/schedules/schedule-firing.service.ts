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
 * One round of claims. One claim first, so an idle poll is one statement; a full batch means a
 * burst, and then `lanes` claims run at once (disjoint: rows are leased). Each lane claims again
 * as soon as its own batch is done while it finds full batches, instead of the round waiting for
 * its slowest claim (ADR 0248). True when anything was claimed.
 */
export async function claimInLanes(
  claim: () => Promise<number>,
  options: { batchSize: number; lanes: number; stopping: () => boolean },
): Promise<boolean> {
  const first = await claim();
  if (first < options.batchSize || options.stopping()) return first > 0;
  const lane = async () => {
    let claimed = 0;
    for (;;) {
      const n = await claim();
      claimed += n;
      if (n < options.batchSize || options.stopping()) return claimed;
    }
  };
  await Promise.all(Array.from({ length: options.lanes }, lane));
  return true;
}

/**
 * Keeps firing due schedule occurrences (ScheduleFirer) while the worker runs. Every worker runs
 * one; they claim disjoint batches. A restart fires what fell due meanwhile, within the catch-up
 * window (SCHEDULES_CATCH_UP_MS).
 */
@Injectable()
export class ScheduleFiringService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly firer: ScheduleFirer;
  private readonly loop: DueWorkLoop;
  private stopping = false;

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
    const batchSize = config.SCHEDULES_BATCH_SIZE;
    this.firer = new ScheduleFirer(store, lookups, timers, {
      catchUpMs: config.SCHEDULES_CATCH_UP_MS,
      batchSize,
    });
    // A schedule this process's schedules projection takes in wakes the loop sooner.
    this.loop = new DueWorkLoop(runtime, logger, {
      projection: 'schedules',
      what: 'firing schedules',
      minGapMs: 50,
      // Under a burst, several claims at once: one decides while another waits on the database.
      round: () => claimInLanes(() => this.firer.fireDue(), { batchSize, lanes: parallel, stopping: () => this.stopping }),
      nextDue: () => timers.nextDue(),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    return this.loop.stop();
  }
}
