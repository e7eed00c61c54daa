import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getSchemaRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetSchemaQuery } from './get-schema.query';

@Controller()
export class GetSchemaController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getSchemaRoute)
  get(@Input() { params, query }: RouteInput<typeof getSchemaRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetSchemaQuery(ctx.environment, params.item_type, query.collection));
  }
}
