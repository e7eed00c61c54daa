import { Provider } from '@nestjs/common';
import {
  BatchCloser,
  BatchStep,
  BranchStep,
  ChannelStep,
  DelayStep,
  DeliveryExecutor,
  EngineDeps,
  EngineLookups,
  Fanout,
  HttpFetchStep,
  InlineRuns,
  LinkTracker,
  PreferenceLinks,
  RandomCohortStep,
  RunExecutor,
  StepHandler,
  ThrottleStep,
  TriggerWorkflowStep,
  UpdateDataStep,
  UpdateObjectStep,
  UpdateTenantStep,
  UpdateUserStep,
  WaitForEventStep,
  WaitMatcher,
  RECIPIENT_EVENT_TYPES,
} from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { createDefaultRegistry } from '@notify/delivery';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { WaitingRunQueries, waitingRunsProjection } from '@notify/projections/waiting-runs';
import {
  CLOCK,
  Clock,
  DATABASE,
  ENGINE_LOOKUPS,
  EVENT_STORE,
  INLINE_RUNS,
  LINK_TRACKER,
  OUTBOUND_HTTP,
  PREFERENCE_LINKS,
  TEMPLATE_RENDERER,
} from '@notify/platform';
import type { OutboundHttp } from '@notify/outbound';
import { RunWorkProgress } from './run-work-progress';
import type { TemplateRenderer } from '@notify/templating';

export const ENGINE_DEPS = Symbol('ENGINE_DEPS');

/** Events whose projections the engine reads recipients from (see EngineDeps.readModelsAt). */
const RECIPIENT_READ_MODELS = RECIPIENT_EVENT_TYPES.map((type) => ({ type, streamId: '' }));
export const STEP_HANDLERS = Symbol('STEP_HANDLERS');

/** Every step kind the engine executes. */
export function stepHandlers(): StepHandler[] {
  return [
    new ChannelStep(),
    new DelayStep(),
    new BranchStep(),
    new RandomCohortStep(),
    new UpdateDataStep(),
    new ThrottleStep(),
    new BatchStep(),
    ...functionSteps(),
  ];
}

/** Steps that call out or act on other aggregates: fetch, recipient updates, triggers, waits. */
function functionSteps(): StepHandler[] {
  return [
    new HttpFetchStep(),
    new UpdateUserStep(),
    new UpdateObjectStep(),
    new UpdateTenantStep(),
    new TriggerWorkflowStep(),
    new WaitForEventStep(),
  ];
}

/** The workflow engine's collaborators, shared by its reactors. */
export const engineProviders: Provider[] = [
  {
    provide: ENGINE_DEPS,
    inject: [
      EVENT_STORE,
      ENGINE_LOOKUPS,
      APP_CONFIG,
      ProjectionRuntime,
      LINK_TRACKER,
      OUTBOUND_HTTP,
      TEMPLATE_RENDERER,
      PREFERENCE_LINKS,
      CLOCK,
    ],
    useFactory: (
      store: EventStore,
      lookups: EngineLookups,
      config: AppConfig,
      runtime: ProjectionRuntime,
      links: LinkTracker | null,
      http: OutboundHttp,
      templates: TemplateRenderer,
      preferenceLinks: PreferenceLinks,
      clock: Clock,
    ): EngineDeps => ({
      store,
      // The worker's one clock: a run resumed by a timer decides by the time the timer fired at.
      clock,
      lookups,
      links,
      // Links in messages must be absolute: without PUBLIC_URL there is no address to put in them.
      preferenceLinks: preferenceLinks.publicUrl ? preferenceLinks : null,
      readModelsAt: async (position) => {
        if (!(await runtime.waitFor(position, RECIPIENT_READ_MODELS, 15_000)))
          throw new Error('recipient read models are behind the run; executing it again later');
      },
      templates,
      http,
      settings: {
        fetchMaxAttempts: config.FETCH_MAX_ATTEMPTS,
        fetchTimeoutMs: config.FETCH_TIMEOUT_MS,
        fetchRetryBaseMs: config.FETCH_RETRY_BASE_MS,
        fetchRetryMaxMs: config.FETCH_RETRY_MAX_MS,
      },
    }),
  },
  { provide: STEP_HANDLERS, useFactory: stepHandlers },
  {
    provide: RunExecutor,
    inject: [ENGINE_DEPS, STEP_HANDLERS],
    useFactory: (deps: EngineDeps, handlers: StepHandler[]) => new RunExecutor(deps, handlers),
  },
  {
    provide: Fanout,
    inject: [EVENT_STORE, ENGINE_LOOKUPS, INLINE_RUNS],
    // An object's subscribers' runs are planned as a broadcast's page is, where they can be (ADR 0287).
    useFactory: (store: EventStore, lookups: EngineLookups, inline: InlineRuns | null) =>
      new Fanout(
        store,
        lookups,
        inline ? (environment, trigger, runs) => inline.plan(environment, trigger, runs, { page: true }) : undefined,
      ),
  },
  {
    provide: RunWorkProgress,
    inject: [EVENT_STORE, DATABASE, APP_CONFIG],
    useFactory: (store: EventStore, database: Database, config: AppConfig) => new RunWorkProgress(store, database, config),
  },
  {
    provide: BatchCloser,
    inject: [EVENT_STORE, RunWorkProgress],
    useFactory: (store: EventStore, progress: RunWorkProgress) => new BatchCloser(store, progress.runsThrough),
  },
  {
    provide: WaitMatcher,
    inject: [EVENT_STORE, DATABASE, ENGINE_LOOKUPS, ProjectionRuntime],
    useFactory: (store: EventStore, database: Database, lookups: EngineLookups, runtime: ProjectionRuntime) =>
      new WaitMatcher(store, new WaitingRunQueries(database.dataSource), lookups, async (position) => {
        // The waiting runs' read model only: the run history also reads RunPaused, and waits for other work (ADR 0286).
        if (!(await runtime.waitFor(position, [{ type: 'RunPaused', streamId: 'run-' }], 30_000, [waitingRunsProjection.name])))
          throw new Error('the waiting-runs read model is behind; retrying');
      }),
  },
  {
    provide: DeliveryExecutor,
    inject: [EVENT_STORE, ENGINE_LOOKUPS, APP_CONFIG, LOGGER, OUTBOUND_HTTP],
    useFactory: (store: EventStore, lookups: EngineLookups, config: AppConfig, logger: Logger, outbound: OutboundHttp) =>
      new DeliveryExecutor(
        store,
        lookups,
        createDefaultRegistry({ outbound, maxLoggedBodyBytes: config.DELIVERY_LOG_MAX_BODY_BYTES }),
        {
          maxAttempts: config.DELIVERY_MAX_ATTEMPTS,
          baseDelayMs: config.DELIVERY_RETRY_BASE_MS,
          maxDelayMs: config.DELIVERY_RETRY_MAX_MS,
          jitter: 0.2,
        },
        {
          concurrency: config.ENGINE_CONCURRENCY,
          publicUrl: config.PUBLIC_URL ?? null,
          onError: (err, messageId) =>
            logger.error({ err, message_id: messageId }, 'a delivery outcome could not be recorded; its check timer settles it'),
        },
      ),
  },
];
