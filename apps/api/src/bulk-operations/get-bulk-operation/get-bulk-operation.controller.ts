import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getBulkOperationRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetBulkOperationQuery } from './get-bulk-operation.query';

@Controller()
export class GetBulkOperationController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getBulkOperationRoute)
  get(@Input() { params }: RouteInput<typeof getBulkOperationRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetBulkOperationQuery(ctx.environment, params.id));
  }
}
