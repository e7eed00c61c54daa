import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listVariablesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListVariablesQuery } from './list-variables.query';

@Controller()
export class ListVariablesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listVariablesRoute)
  list(@Input() { query }: RouteInput<typeof listVariablesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListVariablesQuery(ctx.environment, query));
  }
}
