import { Provider } from '@nestjs/common';
import {
  BranchStep,
  ChannelStep,
  DelayStep,
  EngineLookups,
  InlineRuns,
  LinkTracker,
  PreferenceLinks,
  RandomCohortStep,
  RECIPIENT_EVENT_TYPES,
  recipientFreshnessSql,
  RunExecutor,
  UpdateDataStep,
} from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { EventStore } from '@notify/eventstore';
import type { OutboundHttp } from '@notify/outbound';
import { CLOCK, Clock, ENGINE_LOOKUPS, EVENT_STORE, LINK_TRACKER, OUTBOUND_HTTP, PREFERENCE_LINKS, TEMPLATE_RENDERER } from './tokens';
import { handles, ProjectionRuntime } from '@notify/projection-runtime';
import type { TemplateRenderer } from '@notify/templating';

export const INLINE_RUNS = Symbol('INLINE_RUNS');

/**
 * The executor of runs that need nothing asynchronous, with their trigger (ADR 0258): the trigger
 * endpoint's, and the broadcast sender's for its pages (ADR 0262). The step kinds it may meet, and
 * the freshness check of the recipient read models it plans on. Null when switched off or where
 * the log is not in the read models' database (EventStoreDB).
 */
export const inlineRunsProvider: Provider = {
  provide: INLINE_RUNS,
  inject: [
    APP_CONFIG,
    EVENT_STORE,
    ENGINE_LOOKUPS,
    ProjectionRuntime,
    TEMPLATE_RENDERER,
    LINK_TRACKER,
    PREFERENCE_LINKS,
    OUTBOUND_HTTP,
    CLOCK,
  ],
  useFactory: (
    config: AppConfig,
    store: EventStore,
    lookups: EngineLookups,
    runtime: ProjectionRuntime,
    templates: TemplateRenderer,
    links: LinkTracker | null,
    preferenceLinks: PreferenceLinks,
    http: OutboundHttp,
    clock: Clock,
  ): InlineRuns | null => {
    if (!config.ENGINE_INLINE_RUNS || !store.atomicMultiStreamAppend || !store.typeHeadSql) return null;
    // The projections the worker waits for before it executes a run (its readModelsAt), with the
    // recipient events each applies.
    const projections = runtime.projections.map((p) => ({
      name: p.name,
      types: RECIPIENT_EVENT_TYPES.filter((type) => handles(p, { type, streamId: '' })),
    }));
    const fresh = recipientFreshnessSql(projections, (type) => store.typeHeadSql?.(type));
    if (!fresh) return null;
    const executor = new RunExecutor(
      {
        store,
        lookups,
        templates,
        http,
        links,
        preferenceLinks: preferenceLinks.publicUrl ? preferenceLinks : null,
        settings: { fetchMaxAttempts: config.FETCH_MAX_ATTEMPTS },
        // The runs it executes are decided by the process's clock, as the worker's are (ADR 0274).
        clock,
      },
      [new ChannelStep(), new DelayStep(), new BranchStep(), new RandomCohortStep(), new UpdateDataStep()],
    );
    return new InlineRuns(executor, lookups, fresh, clock);
  },
};
