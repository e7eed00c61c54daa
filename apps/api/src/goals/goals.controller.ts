import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { goalRoutes, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import {
  ArchiveGoalCommand,
  CloneGoalCommand,
  GetGoalQuery,
  ListGoalConversionsQuery,
  ListGoalsQuery,
  UpsertGoalCommand,
} from './goal.messages';

/** Goals in the management API (ADR 0196). */
@Controller()
export class GoalsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Endpoint(goalRoutes.list)
  list(@Input() { query }: RouteInput<typeof goalRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListGoalsQuery(ctx.environment, { after: query.after, before: query.before, limit: query.limit }));
  }

  @Endpoint(goalRoutes.get)
  get(@Input() { params }: RouteInput<typeof goalRoutes.get>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetGoalQuery(ctx.environment, params.goal_key));
  }

  @Endpoint(goalRoutes.upsert)
  upsert(@Input() { params, body }: RouteInput<typeof goalRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertGoalCommand(ctx, params.goal_key, body.goal, true));
  }

  @Endpoint(goalRoutes.validate)
  validate(@Input() { params, body }: RouteInput<typeof goalRoutes.validate>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertGoalCommand(ctx, params.goal_key, body.goal, false));
  }

  @Endpoint(goalRoutes.archive)
  archive(@Input() { params }: RouteInput<typeof goalRoutes.archive>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ArchiveGoalCommand(ctx, params.goal_key));
  }

  @Endpoint(goalRoutes.clone)
  clone(@Input() { params, body }: RouteInput<typeof goalRoutes.clone>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CloneGoalCommand(ctx, params.goal_key, body.clone));
  }

  @Endpoint(goalRoutes.conversions)
  conversions(@Input() { params }: RouteInput<typeof goalRoutes.conversions>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListGoalConversionsQuery(ctx.environment, params.goal_key));
  }
}
