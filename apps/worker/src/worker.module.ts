import { DynamicModule, Module } from '@nestjs/common';
import { ProjectionWorker } from './projection-worker';

/** The background role: projectors (and, as they arrive, process managers, timers, relays). */
@Module({})
export class WorkerModule {
  static register(): DynamicModule {
    return { module: WorkerModule, providers: [ProjectionWorker] };
  }
}
