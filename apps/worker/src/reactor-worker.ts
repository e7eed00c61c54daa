import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Logger, LOGGER } from '@notify/logging';
import { ReactorRuntime } from '@notify/projection-runtime';

/** Keeps every reactor following the log while the worker runs. */
@Injectable()
export class ReactorWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly runtime: ReactorRuntime,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runtime.start();
    if (this.runtime.reactors.length) this.logger.info({ reactors: this.runtime.reactors.map((r) => r.name) }, 'reactors running');
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runtime.stop();
  }
}
