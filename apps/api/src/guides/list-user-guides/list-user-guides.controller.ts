import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { RouteInput, userGuideRoutes } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListUserGuidesQuery } from './list-user-guides.query';

@Controller()
export class ListUserGuidesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(userGuideRoutes.list)
  list(@Input() { params, query }: RouteInput<typeof userGuideRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new ListUserGuidesQuery(ctx, params.user_id, params.channel_id, {
        tenant: query.tenant,
        data: query.data,
        type: query.type,
        forceAll: query.force_all_guides === 'true',
      }),
    );
  }
}
