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
  RandomCohortStep,
  RunExecutor,
  StepHandler,
  ThrottleStep,
  UpdateDataStep,
} from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { createDefaultRegistry } from '@notify/delivery';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ENGINE_LOOKUPS, EVENT_STORE } from '@notify/platform';
import { TemplateEngine } from '@notify/templating';

export const ENGINE_DEPS = Symbol('ENGINE_DEPS');
export const STEP_HANDLERS = Symbol('STEP_HANDLERS');

/** Every step kind the engine executes. */
export function stepHandlers(): StepHandler[] {
  return [new ChannelStep(), new DelayStep(), new BranchStep(), new RandomCohortStep(), new UpdateDataStep(), new ThrottleStep(), new BatchStep()];
}

/** The workflow engine's collaborators, shared by its reactors. */
export const engineProviders: Provider[] = [
  {
    provide: ENGINE_DEPS,
    inject: [EVENT_STORE, ENGINE_LOOKUPS, APP_CONFIG],
    useFactory: (store: EventStore, lookups: EngineLookups, config: AppConfig): EngineDeps => ({
      store,
      lookups,
      templates: new TemplateEngine(),
      fetch: globalThis.fetch,
      settings: { allowPrivateFetch: config.FETCH_ALLOW_PRIVATE_ADDRESSES, fetchMaxAttempts: config.FETCH_MAX_ATTEMPTS },
    }),
  },
  { provide: STEP_HANDLERS, useFactory: stepHandlers },
  { provide: RunExecutor, inject: [ENGINE_DEPS, STEP_HANDLERS], useFactory: (deps: EngineDeps, handlers: StepHandler[]) => new RunExecutor(deps, handlers) },
  { provide: Fanout, inject: [EVENT_STORE, ENGINE_LOOKUPS], useFactory: (store: EventStore, lookups: EngineLookups) => new Fanout(store, lookups) },
  { provide: BatchCloser, inject: [EVENT_STORE], useFactory: (store: EventStore) => new BatchCloser(store) },
  {
    provide: DeliveryExecutor,
    inject: [EVENT_STORE, ENGINE_LOOKUPS, APP_CONFIG, LOGGER],
    useFactory: (store: EventStore, lookups: EngineLookups, config: AppConfig, logger: Logger) =>
      new DeliveryExecutor(
        store,
        lookups,
        createDefaultRegistry(),
        { maxAttempts: config.DELIVERY_MAX_ATTEMPTS, baseDelayMs: config.DELIVERY_RETRY_BASE_MS, maxDelayMs: config.DELIVERY_RETRY_MAX_MS, jitter: 0.2 },
        { concurrency: config.ENGINE_CONCURRENCY, onError: (err, messageId) => logger.error({ err, message_id: messageId }, 'a delivery outcome could not be recorded; its check timer settles it') },
      ),
  },
];
