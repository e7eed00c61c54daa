import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EngineLookups, RecipientDeps, rehearseSource, SourceTemplates, upsertSource } from '@notify/application';
import { assertNotBranch, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { CLOCK, Clock, ENGINE_LOOKUPS, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { SourceQueries } from '@notify/projections/sources';
import { RECIPIENT_DEPS } from '../recipients/recipient-read-models.module';
import { commandMetadata } from '../shared/command-metadata';
import { SOURCE_INGEST_SECRET, SOURCE_TEMPLATES } from './source-deps';
import { presentSource } from './source-present';
import {
  GetSourceQuery,
  GetSourceStatusQuery,
  ListSourceEventsQuery,
  ListSourceLogsQuery,
  ListSourcesQuery,
  RehearseSourceQuery,
  UpsertSourceCommand,
} from './source.messages';

@QueryHandler(ListSourcesQuery)
export class ListSourcesHandler implements IQueryHandler<ListSourcesQuery> {
  constructor(
    private readonly sources: SourceQueries,
    @Inject(SOURCE_INGEST_SECRET) private readonly secret: Buffer,
  ) {}

  async execute({ environment, withSettings, publicUrl }: ListSourcesQuery) {
    const rows = await this.sources.list(environment);
    const byKey = new Map<string, typeof rows>();
    for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row]);
    return {
      entries: [...byKey.values()].map((group) => {
        const { key, name, custom_image_url, environment_settings } = presentSource(group, publicUrl, this.secret);
        return { key, name, custom_image_url, ...(withSettings ? { environment_settings } : {}) };
      }),
    };
  }
}

@QueryHandler(GetSourceQuery)
export class GetSourceHandler implements IQueryHandler<GetSourceQuery> {
  constructor(
    private readonly sources: SourceQueries,
    @Inject(SOURCE_INGEST_SECRET) private readonly secret: Buffer,
  ) {}

  async execute({ environment, key, publicUrl }: GetSourceQuery) {
    const record = await this.sources.get(environment, key);
    if (!record) throw resourceMissing('source');
    return presentSource([record], publicUrl, this.secret);
  }
}

@CommandHandler(UpsertSourceCommand)
export class UpsertSourceHandler implements ICommandHandler<UpsertSourceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SOURCE_TEMPLATES) private readonly templates: SourceTemplates,
    @Inject(SOURCE_INGEST_SECRET) private readonly secret: Buffer,
    private readonly sources: SourceQueries,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, key, source, publicUrl }: UpsertSourceCommand) {
    // Sources are per environment and not versioned (ADR 0195): a branch has none, as in Knock (ADR 0226).
    assertNotBranch(ctx.environment, 'Configuring a source');
    const outcome = await upsertSource(
      { store: this.store, templates: this.templates, existing: () => this.sources.get(ctx.environment, key) },
      ctx.environment,
      key,
      source,
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    const record = await this.sources.get(ctx.environment, key);
    if (!record) throw new Error(`source ${key} was written but is not in the read model`);
    return { source: presentSource([record], publicUrl, this.secret) };
  }
}

@QueryHandler(GetSourceStatusQuery)
export class GetSourceStatusHandler implements IQueryHandler<GetSourceStatusQuery> {
  constructor(private readonly sources: SourceQueries) {}

  async execute({ environment, key }: GetSourceStatusQuery) {
    const record = await this.sources.get(environment, key);
    if (!record) throw resourceMissing('source');
    const activity = await this.sources.activity(environment, key);
    return {
      events_count: activity.count,
      last_event_received: activity.last?.toISOString() ?? null,
      mappings_count: record.mappings.filter((m) => !m.is_deleted).length,
      // Mappings apply as soon as they are saved (ADR 0195): none ever waits for a commit.
      mappings_requiring_commit: [],
    };
  }
}

@QueryHandler(RehearseSourceQuery)
export class RehearseSourceHandler implements IQueryHandler<RehearseSourceQuery> {
  constructor(
    private readonly sources: SourceQueries,
    @Inject(SOURCE_TEMPLATES) private readonly templates: SourceTemplates,
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ environment, key, payload }: RehearseSourceQuery) {
    const record = await this.sources.get(environment, key);
    if (!record) throw resourceMissing('source');
    const headers = Object.fromEntries(Object.entries(payload.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const result = await rehearseSource(
      { templates: this.templates, trigger: { recipients: this.recipients, lookups: this.lookups, clock: this.clock } },
      environment,
      record,
      { body: payload.body ?? {}, headers },
    );
    const failed = result.actions.filter((a) => a.status === 'error').length;
    return {
      log_id: null,
      status: result.status,
      action_logs_count: result.actions.length,
      successful_action_logs_count: result.actions.length - failed,
      failed_action_logs_count: failed,
      errors: result.errors.length ? result.errors : null,
      actions: result.actions.map((a) => ({
        id: a.id,
        action_type: a.action_type,
        action_parameters: a.action_parameters,
        action_payload: a.action_payload,
        action_status: a.status,
        errors: a.errors,
      })),
    };
  }
}

@QueryHandler(ListSourceEventsQuery)
export class ListSourceEventsHandler implements IQueryHandler<ListSourceEventsQuery> {
  constructor(private readonly sources: SourceQueries) {}

  async execute({ environment, key }: ListSourceEventsQuery) {
    if (!(await this.sources.get(environment, key))) throw resourceMissing('source');
    const events = await this.sources.events(environment, key);
    return { entries: events.map((e) => ({ event: e.event, last_received_at: e.lastReceivedAt.toISOString() })) };
  }
}

@QueryHandler(ListSourceLogsQuery)
export class ListSourceLogsHandler implements IQueryHandler<ListSourceLogsQuery> {
  constructor(private readonly sources: SourceQueries) {}

  async execute({ environment, key, filter, page }: ListSourceLogsQuery) {
    if (!(await this.sources.get(environment, key))) throw resourceMissing('source');
    const day = filter.date ? { startingAt: `${filter.date}T00:00:00Z`, endingAt: `${filter.date}T23:59:59.999999Z` } : {};
    const { entries, page_info } = await this.sources.logs(
      environment,
      key,
      { startingAt: filter.starting_at ?? day.startingAt, endingAt: filter.ending_at ?? day.endingAt, event: filter.event, id: filter.id },
      page,
    );
    return {
      entries: entries.map((log) => ({
        id: log.id,
        event: log.event,
        source: log.sourceKey,
        data: (log.payload.body && typeof log.payload.body === 'object' ? log.payload.body : { value: log.payload.body }) as Record<
          string,
          unknown
        >,
        actions: log.actions.map((a) => {
          const result = log.results?.find((r) => r.id === a.id);
          return {
            id: a.id,
            action_type: a.action_type,
            action_parameters: a.action_parameters,
            action_payload: a.action_payload,
            action_result: result?.result ?? (a.errors.length ? { errors: a.errors } : null),
            action_status: result?.status ?? (log.results ? 'error' : 'pending'),
            inserted_at: log.insertedAt.toISOString(),
          };
        }),
        verification_status: 'verified',
        preprocess_output: null,
        inserted_at: log.insertedAt.toISOString(),
      })),
      page_info,
    };
  }
}

export const sourceHandlers = [
  ListSourcesHandler,
  GetSourceHandler,
  UpsertSourceHandler,
  GetSourceStatusHandler,
  RehearseSourceHandler,
  ListSourceEventsHandler,
  ListSourceLogsHandler,
];
