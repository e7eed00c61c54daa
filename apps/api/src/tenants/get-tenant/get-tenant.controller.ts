import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getTenantRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetTenantQuery } from './get-tenant.query';

@Controller()
export class GetTenantController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getTenantRoute)
  get(@Input() { params }: RouteInput<typeof getTenantRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetTenantQuery(ctx.environment, params.id));
  }
}
