import { Controller } from '@nestjs/common';
import { QueryBus, CommandBus } from '@nestjs/cqrs';
import { RouteInput, sourceRoutes } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { Ctx, Endpoint, Input, PublicUrl, RequestContext } from '@notify/http';
import { ReplaySourceEventCommand } from './replay-source-event/replay-source-event.command';
import { SOURCE_PROVIDERS } from './source-providers';
import {
  GetSourceQuery,
  GetSourceStatusQuery,
  ListSourceEventsQuery,
  ListSourceLogsQuery,
  ListSourcesQuery,
  RehearseSourceQuery,
  UpsertSourceCommand,
} from './source.messages';

/** Sources in the management API (ADR 0195); events arrive through IngestSourceEventController. */
@Controller()
export class SourcesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Endpoint(sourceRoutes.list)
  list(@Input() { query }: RouteInput<typeof sourceRoutes.list>, @PublicUrl() url: string) {
    return this.queries.execute(new ListSourcesQuery(query.environment ?? null, !!query.include?.includes('environment_settings'), url));
  }

  @Endpoint(sourceRoutes.get)
  get(@Input() { params }: RouteInput<typeof sourceRoutes.get>, @Ctx() ctx: RequestContext, @PublicUrl() url: string) {
    return this.queries.execute(new GetSourceQuery(ctx.environment, params.key, url));
  }

  @Endpoint(sourceRoutes.upsert)
  upsert(@Input() { params, body }: RouteInput<typeof sourceRoutes.upsert>, @Ctx() ctx: RequestContext, @PublicUrl() url: string) {
    return this.commands.execute(new UpsertSourceCommand(ctx, params.key, body.source, url));
  }

  @Endpoint(sourceRoutes.status)
  status(@Input() { params }: RouteInput<typeof sourceRoutes.status>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetSourceStatusQuery(ctx.environment, params.key));
  }

  @Endpoint(sourceRoutes.rehearse)
  rehearse(@Input() { params, body }: RouteInput<typeof sourceRoutes.rehearse>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new RehearseSourceQuery(ctx.environment, params.key, body.payload));
  }

  @Endpoint(sourceRoutes.events)
  events(@Input() { params }: RouteInput<typeof sourceRoutes.events>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListSourceEventsQuery(ctx.environment, params.key));
  }

  @Endpoint(sourceRoutes.logs)
  logs(@Input() { params, query }: RouteInput<typeof sourceRoutes.logs>, @Ctx() ctx: RequestContext) {
    const { after, before, limit, ...filter } = query;
    return this.queries.execute(new ListSourceLogsQuery(ctx.environment, params.key, filter, { after, before, limit }));
  }

  @Endpoint(sourceRoutes.replay)
  replay(@Input() { params }: RouteInput<typeof sourceRoutes.replay>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ReplaySourceEventCommand(ctx, params.key, params.log_id));
  }

  @Endpoint(sourceRoutes.providers)
  providers() {
    return {
      entries: SOURCE_PROVIDERS.map(({ key, version, provider }) => ({
        key,
        version,
        provider: { name: provider.name, description: provider.description },
      })),
    };
  }

  @Endpoint(sourceRoutes.provider)
  provider(@Input() { params }: RouteInput<typeof sourceRoutes.provider>) {
    const found = SOURCE_PROVIDERS.find((p) => p.key === params.key);
    if (!found) throw new DomainError('source_provider_missing', `No source provider ${params.key} is offered`, 'not_found');
    return found;
  }
}
