import { Command, Query } from '@nestjs/cqrs';
import { RouteOutput, SourceRequestT, sourceRoutes } from '@notify/contracts';
import { RequestContext } from '@notify/http';

type Out<K extends keyof typeof sourceRoutes> = RouteOutput<(typeof sourceRoutes)[K]>;

export class ListSourcesQuery extends Query<Out<'list'>> {
  constructor(
    readonly environment: string | null,
    readonly withSettings: boolean,
    readonly publicUrl: string,
  ) {
    super();
  }
}

export class GetSourceQuery extends Query<Out<'get'>> {
  constructor(
    readonly environment: string,
    readonly key: string,
    readonly publicUrl: string,
  ) {
    super();
  }
}

export class UpsertSourceCommand extends Command<Out<'upsert'>> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly source: SourceRequestT,
    readonly publicUrl: string,
  ) {
    super();
  }
}

export class GetSourceStatusQuery extends Query<Out<'status'>> {
  constructor(
    readonly environment: string,
    readonly key: string,
  ) {
    super();
  }
}

export class RehearseSourceQuery extends Query<Out<'rehearse'>> {
  constructor(
    readonly environment: string,
    readonly key: string,
    readonly payload: { body?: unknown; headers?: Record<string, unknown> },
  ) {
    super();
  }
}

export class ListSourceEventsQuery extends Query<Out<'events'>> {
  constructor(
    readonly environment: string,
    readonly key: string,
  ) {
    super();
  }
}

export class ListSourceLogsQuery extends Query<Out<'logs'>> {
  constructor(
    readonly environment: string,
    readonly key: string,
    readonly filter: { date?: string; starting_at?: string; ending_at?: string; event?: string; id?: string },
    readonly page: { after?: string; before?: string; limit: number },
  ) {
    super();
  }
}
