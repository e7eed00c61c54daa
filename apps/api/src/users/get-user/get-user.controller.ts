import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getUserRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetUserQuery } from './get-user.query';

@Controller()
export class GetUserController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getUserRoute)
  get(@Input() { params }: RouteInput<typeof getUserRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetUserQuery(ctx.environment, params.user_id));
  }
}
