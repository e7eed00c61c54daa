import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getBulkOperationRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, PublicUrl, RequestContext } from '@notify/http';
import { withProgressUrl } from '../progress-url';
import { GetBulkOperationQuery } from './get-bulk-operation.query';

@Controller()
export class GetBulkOperationController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getBulkOperationRoute)
  async get(@Input() { params }: RouteInput<typeof getBulkOperationRoute>, @Ctx() ctx: RequestContext, @PublicUrl() publicUrl: string) {
    return withProgressUrl(await this.queries.execute(new GetBulkOperationQuery(ctx.environment, params.id)), publicUrl);
  }
}
