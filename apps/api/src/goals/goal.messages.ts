import { Command, Query } from '@nestjs/cqrs';
import { GoalRequestT, goalRoutes, RouteOutput } from '@notify/contracts';
import { RequestContext } from '@notify/http';

type Out<K extends keyof typeof goalRoutes> = RouteOutput<(typeof goalRoutes)[K]>;

export class ListGoalsQuery extends Query<Out<'list'>> {
  constructor(
    readonly environment: string,
    readonly page: { after?: string; before?: string; limit: number },
  ) {
    super();
  }
}

export class GetGoalQuery extends Query<Out<'get'>> {
  constructor(
    readonly environment: string,
    readonly key: string,
  ) {
    super();
  }
}

/** Upsert (save) or validate (check only) a goal. */
export class UpsertGoalCommand extends Command<Out<'upsert'>> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly goal: GoalRequestT,
    readonly save: boolean,
  ) {
    super();
  }
}

export class ArchiveGoalCommand extends Command<Out<'archive'>> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
  ) {
    super();
  }
}

export class CloneGoalCommand extends Command<Out<'clone'>> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly clone: { key: string; name: string; environment: string },
  ) {
    super();
  }
}

export class ListGoalConversionsQuery extends Query<Out<'conversions'>> {
  constructor(
    readonly environment: string,
    readonly key: string,
  ) {
    super();
  }
}
