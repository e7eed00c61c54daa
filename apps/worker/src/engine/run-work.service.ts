import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { RunExecutor } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Database } from '@notify/database';
import { EventStore, LogReader, Sleeper } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { KafkaPublisher, kafkaSettingsFrom, RunWorkConsumer, RunWorkDispatcher, RunWorkV1 } from '@notify/messaging';
import { DATABASE, EVENT_STORE, LOG_READER } from '@notify/platform';
import { Reactor, ReactorRuntime } from '@notify/projection-runtime';
import { KafkaRelayReactor } from '../kafka/kafka-relay.reactor';
import { kafkaPartitioning, RUN_EXECUTOR_REACTOR, runWorkGroupId } from './partitioning';

export { kafkaPartitioning };

/**
 * Scale-out of run execution (ADR 0057). Every worker is a member of one consumer group on
 * `<prefix>run-work.v1` and executes the runs of the recipients whose partitions it is assigned.
 * The member that owns partition 0 also runs the deployment's singletons: the dispatcher, which
 * turns the log's run events into work records, and the Kafka relay (ADR 0059); when it dies,
 * partition 0 moves with the rest and so do they.
 * Off (embedded mode, no KAFKA_BROKERS): RunExecutorReactor executes runs straight from the log.
 */
@Injectable()
export class RunWorkService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly enabled: boolean;
  private readonly log: Logger;
  private consumer?: RunWorkConsumer;
  /** The deployment's singletons (dispatcher, relay) and their publisher, run only while elected. */
  private readonly singletons: Reactor[] = [];
  private publisher?: KafkaPublisher;
  private elected?: ReactorRuntime;
  private electionChange: Promise<void> = Promise.resolve();
  /** Whether the last assignment gave this worker partition 0 (what the singletons should follow). */
  private ownsPartitionZero = false;
  private stopped = false;
  private readonly sleeper = new Sleeper();
  private starting?: Promise<void>;
  /** Runs executed by this worker (work items, after deduplication within a chunk). */
  executed = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(LOG_READER) private readonly reader: LogReader,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) store: EventStore,
    private readonly executor: RunExecutor,
    @Optional() relay?: KafkaRelayReactor,
  ) {
    this.enabled = kafkaPartitioning(config);
    this.log = logger.child({ component: 'run-work' });
    if (this.enabled) {
      const settings = kafkaSettingsFrom(config)!;
      this.publisher = new KafkaPublisher(settings, { role: 'engine-dispatch', logger: this.log });
      this.singletons.push(new RunWorkDispatcher(this.publisher, store, settings.topics.runWork));
      if (relay?.electedByPartitionZero) this.singletons.push(electable(relay));
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    // A log whose runs were executed in embedded mode so far: the dispatcher takes over where
    // RunExecutorReactor stopped, instead of asking for every run of the past again.
    await this.database.dataSource.query(
      `INSERT INTO reactor_checkpoints (name, position) SELECT $1, position FROM reactor_checkpoints WHERE name = $2 ON CONFLICT (name) DO NOTHING`,
      [this.singletons[0].name, RUN_EXECUTOR_REACTOR],
    );
    // Their checkpoints exist from the start, so /readyz reports their lag even before a worker is elected.
    await this.runtimeOfSingletons().createCheckpoints();
    this.starting = this.startConsumer();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.sleeper.wake();
    await this.starting;
    await this.consumer?.stop();
    await this.setElected(false);
  }

  /** Joins the group, retrying until the broker answers (the log keeps the work meanwhile). */
  private async startConsumer(): Promise<void> {
    const settings = kafkaSettingsFrom(this.config)!;
    while (!this.stopped) {
      const consumer = new RunWorkConsumer(settings, {
        groupId: this.groupId(),
        sessionTimeoutMs: this.config.ENGINE_KAFKA_SESSION_TIMEOUT_MS,
        logger: this.log,
        onAssignment: (partitions) => {
          this.ownsPartitionZero = partitions.includes(0);
          void this.setElected(this.ownsPartitionZero);
        },
        // Whatever this worker owned may go to another member in this rebalance: the singletons
        // stop until an assignment gives it partition 0 again, so that two workers never run them
        // at once (a member dropped for missed heartbeats keeps running until it learns it here).
        onRebalancing: () => {
          this.ownsPartitionZero = false;
          void this.setElected(false);
        },
        onCrash: (error) => {
          // kafkajs restarts the consumer after retriable failures by itself; this one it gave up on.
          this.log.error({ err: error }, 'the run-work consumer stopped; joining the group again');
          this.consumer = undefined;
          void consumer.stop().catch(() => undefined);
          this.ownsPartitionZero = false;
          void this.setElected(false);
          if (!this.stopped) this.starting = this.sleeper.sleep(2000).then(() => this.startConsumer());
        },
      });
      try {
        await consumer.start((items) => this.execute(items));
        this.consumer = consumer;
        this.log.info({ group: this.groupId(), topic: settings.topics.runWork }, 'executing runs from the run-work consumer group');
        return;
      } catch (error) {
        this.log.error({ err: error }, 'joining the run-work consumer group failed; retrying');
        await consumer.stop().catch(() => undefined);
        await this.sleeper.sleep(2000);
      }
    }
  }

  private groupId(): string {
    return runWorkGroupId(this.config);
  }

  private async execute(items: RunWorkV1[]): Promise<void> {
    const runs = new Map(items.map((i) => [`${i.environment}/${i.run_id}`, { environment: i.environment, runId: i.run_id }]));
    await this.executor.executeMany([...runs.values()], this.config.ENGINE_CONCURRENCY);
    this.executed += runs.size;
    this.log.info({ runs: runs.size, executed: this.executed }, 'run-work executed');
  }

  private runtimeOfSingletons(): ReactorRuntime {
    return new ReactorRuntime(this.reader, this.database.dataSource, this.singletons, {
      batchSize: this.config.PROJECTION_BATCH_SIZE,
      logger: this.log,
    });
  }

  /** Starts or stops the singletons as this worker gains or loses partition 0; changes apply one after another. */
  private setElected(owned: boolean): Promise<void> {
    const change = this.electionChange.then(async () => {
      if (owned && !this.elected && !this.stopped) {
        const runtime = this.runtimeOfSingletons();
        await runtime.start();
        this.elected = runtime;
        this.log.info({ reactors: this.singletons.map((r) => r.name) }, 'run-work dispatcher started (this worker owns partition 0)');
      } else if (!owned && this.elected) {
        const runtime = this.elected;
        this.elected = undefined;
        await runtime.stop();
        await this.publisher?.close();
        this.log.info('run-work dispatcher stopped');
      }
    });
    // A failed change is logged and does not stop the ones queued after it. A failed start is tried
    // again while this worker still owns partition 0: no one else would run the singletons.
    this.electionChange = change.catch((error: unknown) => {
      this.log.error({ err: error }, 'starting or stopping the run-work dispatcher failed');
      if (owned && !this.stopped) {
        void this.sleeper.sleep(1000).then(() => {
          if (this.ownsPartitionZero && !this.stopped) void this.setElected(true);
        });
      }
    });
    return this.electionChange;
  }
}

/** The relay as a reactor of the elected runtime (the worker's own runtime leaves it out). */
function electable(relay: KafkaRelayReactor): Reactor {
  return {
    name: relay.name,
    filter: relay.filter,
    concurrency: relay.concurrency,
    startFrom: relay.startFrom,
    batchSize: relay.batchSize,
    handle: (events) => relay.handle(events),
  };
}
