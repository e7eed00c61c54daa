import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getFeedRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetFeedQuery } from './get-feed.query';

@Controller()
export class GetFeedController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getFeedRoute)
  get(@Input() { params, query }: RouteInput<typeof getFeedRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetFeedQuery(ctx, params.user_id, params.channel_id, query));
  }
}
