import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { engineEvent } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore, RecordedEvent } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { CLOCK, Clock, DATABASE, EVENT_STORE } from '@notify/platform';
import { DueTimer, TimerQueries } from '@notify/projections/timers';
import { uuidV5 as uuidv5 } from '@notify/contracts';
import { DueWorkLoop } from './due-work-loop';

const TIMER_NAMESPACE = '9b2f6c1d-2e3a-4b5c-8d7e-6f5a4b3c2d1e';
/** The event id of a timer's firing: the same on every worker and every retry. */
export const timerFiredEventId = (timerId: string) => uuidv5(timerId, TIMER_NAMESPACE);

/**
 * Fires due timers by appending TimerFired to the stream that scheduled them. Timers are
 * durable (events plus the timers read model), so a restart fires whatever fell due meanwhile,
 * and two workers firing the same timer append it once (deterministic event id).
 */
/** Whether events the timers read model applied may have brought a timer due sooner: only a new one can. */
export const bringsTimers = (events: readonly RecordedEvent[]): boolean => events.some((e) => e.type === 'TimerScheduled');

@Injectable()
export class TimerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly queries: TimerQueries;
  private readonly recentlyFired = new Map<string, number>();
  private readonly loop: DueWorkLoop;
  firedCount = 0;
  /** Completed looks for due timers (tests wait for one to know the service has looked). */
  polls = 0;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) database: Database,
    @Inject(LOGGER) logger: Logger,
    // Says when a timer is due: the process's clock (ADR 0274).
    @Inject(CLOCK) private readonly clock: Clock,
    runtime: ProjectionRuntime,
  ) {
    this.queries = new TimerQueries(database.dataSource);
    // A new timer may be due sooner than the current sleep: the loop looks again when the timers
    // read model took one in (only a TimerScheduled can: cancellations and firings of timers,
    // with every run that ends, cannot make anything due sooner). Polls are at least 50 ms apart
    // (a timer may fire this much late).
    this.loop = new DueWorkLoop(runtime, logger, {
      projection: 'timers',
      what: 'firing timers',
      minGapMs: 50,
      wakeOn: bringsTimers,
      now: () => this.clock().getTime(),
      round: async () => {
        const fired = await this.fireDue(this.clock());
        this.polls++;
        return fired === 200;
      },
      nextDue: () => this.queries.nextDue(),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Fires every timer due at `now` (up to 200 at a time); returns how many it fired. */
  async fireDue(now: Date): Promise<number> {
    for (const [id, at] of this.recentlyFired) if (Date.now() - at > 60_000) this.recentlyFired.delete(id);
    const due = (await this.queries.due(now, 200)).filter((t) => !this.isRecent(t.timerId));
    await Promise.all(due.map((t) => this.fire(t)));
    return due.length;
  }

  private async fire(timer: DueTimer): Promise<void> {
    await this.store.append(timer.streamId, [
      engineEvent(
        'TimerFired',
        { timer_id: timer.timerId, fired_at: this.clock().toISOString() },
        { id: timerFiredEventId(timer.timerId), environment: timer.environment, causationId: timer.timerId, actor: 'system:timers' },
      ),
    ]);
    this.recentlyFired.set(timer.timerId, Date.now());
    this.firedCount++;
  }

  /** Until the read model records a firing, the same timer is still listed as due. */
  private isRecent(timerId: string): boolean {
    const at = this.recentlyFired.get(timerId);
    return at !== undefined && Date.now() - at <= 60_000;
  }
}
