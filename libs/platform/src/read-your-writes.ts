import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { AppendResult } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';

/**
 * A write returns only once the read models that show it have caught up, so the same client
 * (or any other, on any api instance) reads what it just wrote. The wait covers only the
 * projections that read the appended event types.
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
    const caughtUp = await this.runtime.waitFor(
      position,
      writes.flatMap((w) => w.events.map((e) => ({ type: e.type, streamId: w.append.streamId }))),
      this.config.READ_YOUR_WRITES_TIMEOUT_MS,
    );
    if (!caughtUp) this.logger.warn({ position, writes: writes.length }, 'read models did not catch up in time; is a worker running?');
  }

  async settle(append: AppendResult | undefined, events: readonly { type: string }[]): Promise<void> {
    if (!append || events.length === 0) return;
    const caughtUp = await this.runtime.waitFor(
      append.position,
      events.map((e) => ({ type: e.type, streamId: append.streamId })),
      this.config.READ_YOUR_WRITES_TIMEOUT_MS,
    );
    if (!caughtUp) this.logger.warn({ stream: append.streamId, position: append.position }, 'read models did not catch up in time; is a worker running?');
  }
}
