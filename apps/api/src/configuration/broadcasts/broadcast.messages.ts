import { Command, Query } from '@nestjs/cqrs';
import { BroadcastT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

type Wrapped = { broadcast: BroadcastT };

export class ListBroadcastsQuery extends Query<{
  entries: BroadcastT[];
  page_info: { after: string | null; before: string | null; page_size: number };
}> {
  constructor(
    readonly environment: string,
    readonly page: { after?: string; before?: string; limit: number },
  ) {
    super();
  }
}

export class GetBroadcastQuery extends Query<BroadcastT> {
  constructor(
    readonly environment: string,
    readonly key: string,
  ) {
    super();
  }
}

export class UpsertBroadcastCommand extends Command<Wrapped> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly body: Record<string, unknown>,
    readonly save: boolean,
  ) {
    super();
  }
}

export class SendBroadcastCommand extends Command<Wrapped> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly sendAt: string | null,
  ) {
    super();
  }
}

export class CancelBroadcastCommand extends Command<Wrapped> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
  ) {
    super();
  }
}
