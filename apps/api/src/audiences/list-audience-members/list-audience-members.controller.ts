import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listAudienceMembersRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListAudienceMembersQuery } from './list-audience-members.query';

@Controller()
export class ListAudienceMembersController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listAudienceMembersRoute)
  list(@Input() { params, query }: RouteInput<typeof listAudienceMembersRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListAudienceMembersQuery(ctx.environment, params.key, query));
  }
}
