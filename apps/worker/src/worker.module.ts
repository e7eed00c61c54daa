import { DynamicModule, Module, Type } from '@nestjs/common';
import { Fanout } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Database } from '@notify/database';
import { LogReader } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { DATABASE, inlineRunsProvider, LOG_READER } from '@notify/platform';
import { ProjectionRuntime, Reactor, ReactorRuntime } from '@notify/projection-runtime';
import { engineProviders } from './engine/engine.providers';
import { RUN_EXECUTOR_REACTOR } from './engine/partitioning';
import { MetricsListener } from './metrics-listener';
import { RunWorkService } from './engine/run-work.service';
import { ProjectionWorker } from './projection-worker';
import { relayMappersProvider } from './kafka/relay-mappers';
import { ReactorWorker } from './reactor-worker';
import { workerReactors } from './reactors';
import { TimerService } from './timers/timer.service';
import { ScheduleFiringService } from './schedules/schedule-firing.service';
import { BroadcastSendingService } from './broadcasts/broadcast-sending.service';

export const REACTORS = Symbol('REACTORS');

/** The background role: projections, and reactors (process managers, timers, relays). */
@Module({})
export class WorkerModule {
  static register(options: { reactors?: Type<Reactor>[] } = {}): DynamicModule {
    const reactors = options.reactors ?? workerReactors;
    return {
      module: WorkerModule,
      providers: [
        ProjectionWorker,
        ...engineProviders,
        relayMappersProvider,
        ...reactors,
        { provide: REACTORS, inject: reactors, useFactory: (...instances: Reactor[]) => instances },
        {
          provide: ReactorRuntime,
          inject: [LOG_READER, DATABASE, REACTORS, APP_CONFIG, LOGGER, ProjectionRuntime, Fanout],
          useFactory: (
            reader: LogReader,
            database: Database,
            instances: Reactor[],
            config: AppConfig,
            logger: Logger,
            projections: ProjectionRuntime,
            fanout: Fanout,
          ) => {
            const runtime = new ReactorRuntime(reader, database.dataSource, instances, { batchSize: config.PROJECTION_BATCH_SIZE, logger });
            // The run history waits while the run executor has a backlog (ADR 0286), or while a
            // fan-out to an object's subscribers appends runs it decided itself (ADR 0287).
            projections.yieldTo(() => runtime.behind(RUN_EXECUTOR_REACTOR) || fanout.fanningOut);
            return runtime;
          },
        },
        ReactorWorker,
        TimerService,
        ScheduleFiringService,
        inlineRunsProvider,
        BroadcastSendingService,
        RunWorkService,
        MetricsListener,
      ],
      exports: [ReactorRuntime, TimerService, ScheduleFiringService, RunWorkService, MetricsListener],
    };
  }
}
