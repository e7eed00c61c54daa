import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { isDatabaseUnavailable } from '@notify/database';
import { AppendResult } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';

/**
 * A write returns only once the read models that show it have caught up, so the same client
 * (or any other, on any api instance) reads what it just wrote. The wait covers only the
 * projections that read the appended event types.
 *
 * It is called after the write committed, so it never fails the request: when the read models
 * do not catch up in time, or the database stops answering while it waits, the write still
 * answers as done (it is in the log) and a warning is logged (ADR 0135).
 */
@Injectable()
export class ReadYourWrites {
  constructor(
    private readonly runtime: ProjectionRuntime,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Several writes at once: waits until reads show all of them. */
  async settleAll(writes: readonly { append: AppendResult; events: readonly { type: string }[] }[]): Promise<void> {
    if (writes.length === 0) return;
    const position = writes.map((w) => w.append.position).reduce((a, b) => (a > b ? a : b));
    const caughtUp = await this.wait(
      position,
      writes.flatMap((w) => w.events.map((e) => ({ type: e.type, streamId: w.append.streamId }))),
    );
    if (!caughtUp) this.logger.warn({ position, writes: writes.length }, 'read models did not catch up in time; is a worker running?');
  }

  async settle(append: AppendResult | undefined, events: readonly { type: string }[]): Promise<void> {
    if (!append || events.length === 0) return;
    const caughtUp = await this.wait(
      append.position,
      events.map((e) => ({ type: e.type, streamId: append.streamId })),
    );
    if (!caughtUp)
      this.logger.warn(
        { stream: append.streamId, position: append.position },
        'read models did not catch up in time; is a worker running?',
      );
  }

  private async wait(position: string, events: { type: string; streamId: string }[]): Promise<boolean> {
    try {
      return await this.runtime.waitFor(position, events, this.config.READ_YOUR_WRITES_TIMEOUT_MS);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.logger.warn(
        { err: error, position },
        'database unavailable while waiting for the read models; the write is recorded and answers as done',
      );
      return true;
    }
  }
}
