import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import {
  BatchCloser,
  DeliveryExecutor,
  Fanout,
  RunExecutor,
  RunToExecute,
  WAIT_MATCHER_EVENT_TYPES,
  WAIT_SOURCE_STREAM_PREFIXES,
  WaitMatcher,
} from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { WorkflowTriggeredData } from '@notify/domain';
import { RecordedEvent } from '@notify/eventstore';
import { NOTHING_DONE, Reactor } from '@notify/projection-runtime';
import { FANOUT_REACTOR, kafkaPartitioning, RUN_EXECUTOR_REACTOR } from './partitioning';

/** The id at the end of a stream name `<kind>-<env>-<uuid>`. */
const idOf = (streamId: string) => streamId.slice(-36);

/** One trigger becomes one run per recipient (objects fan out to their subscribers). */
@Injectable()
export class TriggerFanoutReactor implements Reactor {
  readonly name = FANOUT_REACTOR;
  readonly filter = { eventTypes: ['WorkflowTriggered'] };
  /** The whole batch at once, so many small triggers become a few appends. */
  readonly concurrency = 1;
  /** A fan-out done again adds each run once (run and event ids derived from trigger and recipient). */
  readonly replayable = true;

  constructor(private readonly fanout: Fanout) {}

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    await this.fanout.fanOutMany(events);
  }
}

/** Run events after which the run has something to do. */
const WAKES_RUN = ['RunEnqueued', 'TimerFired', 'RunResumed'];
/**
 * Run events after which the run has nothing to do until something wakes it again: whoever
 * appended one decided it on every event before it (expected revisions), wakes included.
 */
const SETTLES_RUN = ['RunPaused', 'RunCompleted', 'RunCancelled'];

/**
 * Drives recipient runs whenever something happens to them: enqueued, a timer fired, resumed.
 * Off when runs are shared among workers through Kafka (RunWorkService does it then).
 */
@Injectable()
export class RunExecutorReactor implements Reactor {
  readonly name = RUN_EXECUTOR_REACTOR;
  // Triggers too (appended with their runs): a run whose trigger this reactor saw does not read it.
  // The events that settle a run too: a run executed with its trigger (ADR 0258), or by an
  // earlier batch, whose settling event this batch holds after its wake is left alone. Not the
  // steps' other events: a batch holds wakes, not the executor's own decisions (ADR 0260).
  readonly filter = { eventTypes: [...WAKES_RUN, ...SETTLES_RUN, 'WorkflowTriggered'], streamPrefixes: ['run-', 'workflow_run-'] };
  /** The whole batch at once: runs are planned in parallel and committed together. */
  readonly concurrency = 1;
  /** Executing a run again appends nothing twice (derived ids, expected revisions). */
  readonly replayable = true;
  readonly enabled: boolean;
  private readonly parallel: number;

  constructor(
    private readonly executor: RunExecutor,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.parallel = config.ENGINE_CONCURRENCY;
    this.enabled = !kafkaPartitioning(config);
  }

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    // One execution takes a run as far as it can go, however many of its events arrived.
    // A RunEnqueued names its workflow run: its trigger is read with the run, in one statement.
    // A run whose stream this batch holds from its first event with nothing after it (a
    // RunEnqueued at revision 0) is executed on that event, not read again; if the stream has
    // moved on meanwhile, the append's expected revision says so and the run is read afresh.
    const runs = new Map<string, RunToExecute>();
    for (const e of events) {
      if (e.type === 'WorkflowTriggered') {
        if (e.streamId.startsWith('workflow_run-')) this.executor.rememberTrigger(idOf(e.streamId), e.data as WorkflowTriggeredData);
        continue;
      }
      if (!e.streamId.startsWith('run-')) continue;
      if (SETTLES_RUN.includes(e.type)) {
        // Settled after whatever woke it earlier in the batch.
        runs.delete(e.streamId);
        continue;
      }
      const workflowRunId = e.type === 'RunEnqueued' ? (e.data as { workflow_run_id?: string }).workflow_run_id : undefined;
      const known = runs.get(e.streamId);
      runs.set(e.streamId, {
        environment: e.metadata.environment!,
        runId: idOf(e.streamId),
        workflowRunId: workflowRunId ?? known?.workflowRunId,
        history: !known && e.revision === 0 ? [e] : undefined,
      });
    }
    await this.executor.executeMany([...runs.values()], this.parallel);
  }
}

/** Closes batch windows and resumes the runs that own them. */
@Injectable()
export class BatchCloserReactor implements Reactor {
  readonly name = 'engine-batches';
  readonly filter = { eventTypes: ['TimerFired', 'BatchClosed'], streamPrefixes: ['batch-'] };
  readonly concurrency = 8;

  constructor(private readonly closer: BatchCloser) {}

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    for (const event of events) await this.closer.handle(event);
  }
}

/**
 * Sends messages through their providers, retries them when their retry timer fires, settles
 * attempts a stopped worker left unfinished when their check timer fires, and drops the push
 * tokens an attempt found dead. On shutdown, calls in flight are abandoned unrecorded (see
 * DeliveryExecutor.stop).
 */
@Injectable()
export class DeliveryReactor implements Reactor, BeforeApplicationShutdown {
  readonly name = 'engine-delivery';
  readonly filter = { eventTypes: ['MessageCreated', 'TimerFired', 'MessageDeliveryAttemptCompleted'], streamPrefixes: ['message-'] };
  readonly concurrency: number;

  constructor(
    private readonly delivery: DeliveryExecutor,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.concurrency = config.ENGINE_CONCURRENCY;
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.delivery.stop();
  }

  async handle(events: readonly RecordedEvent[]): Promise<void | typeof NOTHING_DONE> {
    // In-app messages are delivered by being in the feed: a batch of only those does nothing here.
    let acted = false;
    for (const event of events) {
      if (event.type === 'MessageCreated' && ['in_app_feed', 'in_app'].includes((event.data as { channel: { type: string } }).channel.type))
        continue;
      acted = true;
      if (event.type === 'MessageDeliveryAttemptCompleted') {
        await this.delivery.dropInvalidTokens(event);
        await this.delivery.suppressBounced(event);
        continue;
      }
      await this.delivery.handle(event.metadata.environment!, idOf(event.streamId), {
        type: event.type,
        timerId: (event.data as { timer_id?: string }).timer_id,
      });
    }
    return acted ? undefined : NOTHING_DONE;
  }
}

/** Resumes runs paused on wait_for_event when the run, message or recipient event they wait for happens. */
@Injectable()
export class WaitForEventReactor implements Reactor {
  readonly name = 'engine-wait-for-event';
  // RunPaused too: the matcher keeps what each environment awaits and learns of new waits from them.
  readonly filter = { eventTypes: WAIT_MATCHER_EVENT_TYPES, streamPrefixes: WAIT_SOURCE_STREAM_PREFIXES };

  constructor(private readonly matcher: WaitMatcher) {}

  skipped(): void {
    this.matcher.forget();
  }

  async handle(events: readonly RecordedEvent[]): Promise<void | typeof NOTHING_DONE> {
    // Its only effect is resuming runs (RunResumed with a deterministic id).
    return (await this.matcher.handle(events)) === 0 ? NOTHING_DONE : undefined;
  }
}

export const engineReactors = [TriggerFanoutReactor, RunExecutorReactor, BatchCloserReactor, DeliveryReactor, WaitForEventReactor];
