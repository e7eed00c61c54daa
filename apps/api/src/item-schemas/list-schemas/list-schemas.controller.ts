import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listSchemasRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListSchemasQuery } from './list-schemas.query';

@Controller()
export class ListSchemasController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listSchemasRoute)
  list(@Input() { query }: RouteInput<typeof listSchemasRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListSchemasQuery(ctx.environment, query.item_type));
  }
}
