import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listUserSubscriptionsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListUserSubscriptionsQuery } from './list-user-subscriptions.query';

@Controller()
export class ListUserSubscriptionsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listUserSubscriptionsRoute)
  list(@Input() { params, query }: RouteInput<typeof listUserSubscriptionsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListUserSubscriptionsQuery(ctx.environment, params.user_id, query));
  }
}
