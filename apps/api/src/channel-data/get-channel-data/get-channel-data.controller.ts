import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getObjectChannelDataRoute, getUserChannelDataRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetChannelDataQuery } from './get-channel-data.query';

@Controller()
export class GetChannelDataController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getUserChannelDataRoute)
  forUser(@Input() { params }: RouteInput<typeof getUserChannelDataRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetChannelDataQuery(ctx.environment, { type: 'user', id: params.user_id }, params.channel_id));
  }

  @Endpoint(getObjectChannelDataRoute)
  forObject(@Input() { params }: RouteInput<typeof getObjectChannelDataRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new GetChannelDataQuery(ctx.environment, { type: 'object', collection: params.collection, id: params.object_id }, params.channel_id),
    );
  }
}
