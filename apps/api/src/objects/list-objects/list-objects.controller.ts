import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listObjectsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListObjectsQuery } from './list-objects.query';

@Controller()
export class ListObjectsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listObjectsRoute)
  list(@Input() { params, query }: RouteInput<typeof listObjectsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListObjectsQuery(ctx.environment, params.collection, query));
  }
}
