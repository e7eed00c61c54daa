import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getObjectRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetObjectQuery } from './get-object.query';

@Controller()
export class GetObjectController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getObjectRoute)
  get(@Input() { params }: RouteInput<typeof getObjectRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetObjectQuery(ctx.environment, params.collection, params.id));
  }
}
