import { RecordedEvent, Sleeper } from '@notify/eventstore';
import { Logger } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';

export interface DueWorkLoopOptions {
  /** The read model whose applied batches may bring work due sooner (wakes the loop). */
  projection: string;
  /** Named in the log line when a round fails. */
  what: string;
  /** One round of work; true when it left work behind (the next round starts at once). */
  round: () => Promise<boolean>;
  /**
   * Whether events the read model took in may bring work due sooner than the current sleep
   * (default: any may). Events that only end or complete work (a timer cancelled or fired)
   * cannot: the sleep already ends at the earliest due time known, and a round then finds what
   * is left (ADR 0251).
   */
  wakeOn?: (events: readonly RecordedEvent[]) => boolean;
  /** When work is next due, if known. */
  nextDue: () => Promise<Date | undefined>;
  /** Polls at least this far apart unless the last round left work behind (0: no gap). */
  minGapMs?: number;
  /** Longest sleep: a read model this process does not apply is looked at this often. */
  maxSleepMs?: number;
  /** Shortest sleep between rounds that left nothing behind. */
  minSleepMs?: number;
  /** The clock `nextDue` is compared with (tests move their own). */
  now?: () => number;
}

/**
 * The loop every timer-like worker service runs (durable timers, schedules, broadcasts: ADR
 * 0200): a round of due work, then a sleep until the next due time, at most `maxSleepMs`, woken
 * early when the service's read model takes something in. A failed round is logged and retried.
 */
export class DueWorkLoop {
  private readonly sleeper = new Sleeper();
  private stopped = false;
  private loop?: Promise<void>;
  private unlisten?: () => void;

  constructor(
    private readonly runtime: ProjectionRuntime,
    private readonly logger: Logger,
    private readonly options: DueWorkLoopOptions,
  ) {}

  start(): void {
    const wakeOn = this.options.wakeOn;
    this.unlisten = this.runtime.onApplied(this.options.projection, (events) => {
      if (!wakeOn || wakeOn(events)) this.sleeper.wake();
    });
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    this.sleeper.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { minGapMs = 0, maxSleepMs = 1000, minSleepMs = 10 } = this.options;
    const now = this.options.now ?? Date.now;
    let lastPoll = 0;
    let backlog = false;
    while (!this.stopped) {
      // Under load every applied batch wakes the loop; polls stay minGapMs apart unless the last
      // round left work behind.
      const since = Date.now() - lastPoll;
      if (!backlog && since < minGapMs) await new Promise((r) => setTimeout(r, minGapMs - since));
      if (this.stopped) break;
      lastPoll = Date.now();
      let pause = maxSleepMs;
      try {
        backlog = await this.options.round();
        if (backlog) pause = 0;
        else {
          const next = await this.options.nextDue();
          if (next) pause = Math.max(0, Math.min(maxSleepMs, next.getTime() - now()));
        }
      } catch (error) {
        this.logger.error({ err: error }, `${this.options.what} failed; retrying`);
        backlog = false;
        pause = maxSleepMs;
      }
      if (pause > 0 && !this.stopped) await this.sleeper.sleep(Math.max(pause, minSleepMs));
    }
  }
}
