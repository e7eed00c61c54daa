import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { DEFAULT_GUIDE_GROUP_KEY, guideGroupRoutes, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetGuideGroupQuery, SetGuideGroupCommand } from './guide-groups.messages';

/** The environment's guide group: display order and throttle (ADR 0166). */
@Controller()
export class GuideGroupsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Endpoint(guideGroupRoutes.list)
  async list(@Ctx() ctx: RequestContext) {
    return { entries: [await this.queries.execute(new GetGuideGroupQuery(ctx.environment, DEFAULT_GUIDE_GROUP_KEY))] };
  }

  @Endpoint(guideGroupRoutes.get)
  async get(@Input() { params }: RouteInput<typeof guideGroupRoutes.get>, @Ctx() ctx: RequestContext) {
    return { guide_group: await this.queries.execute(new GetGuideGroupQuery(ctx.environment, params.guide_group_key)) };
  }

  @Endpoint(guideGroupRoutes.upsert)
  upsert(@Input() { params, body }: RouteInput<typeof guideGroupRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new SetGuideGroupCommand(ctx, params.guide_group_key, body.guide_group));
  }
}
