import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';

/** Keeps every read model following the log while the worker runs. */
@Injectable()
export class ProjectionWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly runtime: ProjectionRuntime,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runtime.start();
    this.logger.info({ projections: this.runtime.projections.map((p) => p.name) }, 'projections running');
  }

  /** Runs before the shared database closes (that happens in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.runtime.stop();
  }
}
