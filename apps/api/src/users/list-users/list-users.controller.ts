import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listUsersRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListUsersQuery } from './list-users.query';

@Controller()
export class ListUsersController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listUsersRoute)
  list(@Input() { query }: RouteInput<typeof listUsersRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListUsersQuery(ctx.environment, query));
  }
}
