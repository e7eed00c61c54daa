import { EventStore, LogFilter, LogPosition, RecordedEvent, START } from './event-store';
import { Sleeper } from './sleeper';

export interface SubscriptionOptions {
  /** Start after this position (exclusive). */
  after?: LogPosition;
  filter?: LogFilter;
  batchSize?: number;
  /** Longest sleep between reads when nothing wakes the subscriber (default 1000 ms). */
  idlePollMs?: number;
  /**
   * Called with each batch in log order. `scannedTo` may be past the last event when a
   * filter skipped events; a checkpoint may safely be moved there.
   */
  handle(events: RecordedEvent[], scannedTo: LogPosition): Promise<void>;
  onError?(error: unknown): void;
}

/**
 * A catch-up subscription built only on readAll and wake-up hints, so it behaves the same on
 * every adapter. After a hint that finds nothing it re-reads a few times with growing pauses:
 * a commit can stay invisible for a moment while an older transaction is still open.
 */
export class CatchUpSubscription {
  private position: LogPosition;
  private stopped = false;
  private readonly sleeper = new Sleeper();
  private readonly unlisten: () => void;
  private hinted = false;
  readonly done: Promise<void>;

  /** Reads through the store itself or through a reader in front of it (a SharedLogReader). */
  constructor(
    private readonly store: Pick<EventStore, 'readAll' | 'onAppended'>,
    private readonly options: SubscriptionOptions,
  ) {
    this.position = options.after ?? START;
    this.unlisten = store.onAppended(() => {
      this.hinted = true;
      this.sleeper.wake();
    });
    this.done = this.run();
  }

  get currentPosition(): LogPosition {
    return this.position;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten();
    this.sleeper.wake();
    await this.done;
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    const idle = this.options.idlePollMs ?? 1000;
    let backoff = 0;
    while (!this.stopped) {
      const woken = this.hinted;
      try {
        this.hinted = false;
        const page = await this.store.readAll({ after: this.position, maxCount: batchSize, filter: this.options.filter });
        if (page.events.length > 0 || page.scannedTo > this.position) {
          await this.options.handle(page.events, page.scannedTo);
          this.position = page.scannedTo;
          backoff = 0;
          continue;
        }
        backoff = woken || backoff === 0 ? 5 : Math.min(backoff * 2, idle);
      } catch (error) {
        this.options.onError?.(error);
        backoff = Math.min(Math.max(backoff * 2, 100), 5000);
      }
      if (!this.hinted) await this.sleeper.sleep(backoff);
    }
  }
}
