import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listTenantsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListTenantsQuery } from './list-tenants.query';

@Controller()
export class ListTenantsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listTenantsRoute)
  list(@Input() { query }: RouteInput<typeof listTenantsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListTenantsQuery(ctx.environment, query));
  }
}
