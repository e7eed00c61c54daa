import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listCommitsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListCommitsQuery } from './list-commits.query';

@Controller()
export class ListCommitsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listCommitsRoute)
  list(@Input() { query }: RouteInput<typeof listCommitsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListCommitsQuery(ctx.environment, query));
  }
}
