import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { BroadcastSender } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Database } from '@notify/database';
import { EventStore, Sleeper } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { BroadcastQueries, BroadcastTimers } from '@notify/projections/broadcasts';

/** Longest sleep: a send this process's broadcasts projection takes in wakes the loop sooner. */
const MAX_SLEEP_MS = 1000;

/**
 * Keeps sending broadcasts (BroadcastSender) while the worker runs: scheduled sends when due,
 * sends in progress to their end. Every worker runs one; leases keep them on different
 * broadcasts, and a worker that stops leaves its broadcast to the next after the lease (ADR 0172).
 */
@Injectable()
export class BroadcastSendingService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly sender: BroadcastSender;
  private readonly timers: BroadcastTimers;
  private readonly sleeper = new Sleeper();
  private stopped = false;
  private loop?: Promise<void>;
  private unlisten?: () => void;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(DATABASE) database: Database,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly runtime: ProjectionRuntime,
  ) {
    this.timers = new BroadcastTimers(database.dataSource);
    const queries = new BroadcastQueries(database.dataSource);
    this.sender = new BroadcastSender(
      store,
      {
        recipients: (environment, audienceKey, after, limit) => queries.recipients(environment, audienceKey, after, limit),
        claim: (now, limit) => this.timers.claim(now, limit),
        renew: (claim, now) => this.timers.renew(claim, now),
        release: (claim) => this.timers.release(claim),
      },
      { pageSize: config.BROADCASTS_PAGE_SIZE },
    );
  }

  onApplicationBootstrap(): void {
    this.unlisten = this.runtime.onApplied('broadcasts', () => this.sleeper.wake());
    this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    this.sleeper.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let pause = MAX_SLEEP_MS;
      try {
        if ((await this.sender.tick()) > 0) pause = 0;
        else {
          const next = await this.timers.nextDue();
          if (next) pause = Math.max(0, Math.min(MAX_SLEEP_MS, next.getTime() - Date.now()));
        }
      } catch (error) {
        this.logger.error({ err: error }, 'sending broadcasts failed; retrying');
      }
      if (!this.stopped) await this.sleeper.sleep(Math.max(pause, 20));
    }
  }
}
