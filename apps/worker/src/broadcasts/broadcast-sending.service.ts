import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { BroadcastSender, InlineRuns } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { DATABASE, EVENT_STORE, INLINE_RUNS } from '@notify/platform';
import { BroadcastQueries, BroadcastTimers } from '@notify/projections/broadcasts';
import { DueWorkLoop } from '../timers/due-work-loop';

/**
 * Keeps sending broadcasts (BroadcastSender) while the worker runs: scheduled sends when due,
 * sends in progress to their end. Every worker runs one; leases keep them on different
 * broadcasts, and a worker that stops leaves its broadcast to the next after the lease (ADR 0172).
 */
@Injectable()
export class BroadcastSendingService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly sender: BroadcastSender;
  private readonly loop: DueWorkLoop;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(DATABASE) database: Database,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) logger: Logger,
    runtime: ProjectionRuntime,
    @Inject(INLINE_RUNS) inline: InlineRuns | null,
  ) {
    const timers = new BroadcastTimers(database.dataSource);
    const queries = new BroadcastQueries(database.dataSource);
    this.sender = new BroadcastSender(
      store,
      {
        recipients: (env, audience, after, limit, upTo) => queries.recipients(env, audience, after, limit, new Date(), upTo),
        lastOf: (members) => queries.lastOf(members),
        claim: (now, limit) => timers.claim(now, limit),
        renew: (claim, now) => timers.renew(claim, now),
        release: (claim) => timers.release(claim),
        // A page's runs executed with its trigger where they can be (ADR 0262).
        planRuns: inline ? (environment, trigger, runs) => inline.plan(environment, trigger, runs, { page: true }) : undefined,
      },
      { pageSize: config.BROADCASTS_PAGE_SIZE },
    );
    // A send this process's broadcasts projection takes in wakes the loop sooner.
    this.loop = new DueWorkLoop(runtime, logger, {
      projection: 'broadcasts',
      what: 'sending broadcasts',
      minSleepMs: 20,
      round: async () => (await this.sender.tick()) > 0,
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
