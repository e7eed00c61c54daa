import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listObjectSubscriptionsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListObjectSubscriptionsQuery } from './list-object-subscriptions.query';

@Controller()
export class ListObjectSubscriptionsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listObjectSubscriptionsRoute)
  list(@Input() { params, query }: RouteInput<typeof listObjectSubscriptionsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListObjectSubscriptionsQuery(ctx.environment, params.collection, params.object_id, query));
  }
}
