import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listObjectSchedulesRoute, listUserSchedulesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListRecipientSchedulesQuery } from './list-recipient-schedules.query';

@Controller()
export class ListRecipientSchedulesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listUserSchedulesRoute)
  forUser(@Input() { params, query }: RouteInput<typeof listUserSchedulesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListRecipientSchedulesQuery(ctx.environment, { type: 'user', id: params.user_id }, query.page_size));
  }

  @Endpoint(listObjectSchedulesRoute)
  forObject(@Input() { params, query }: RouteInput<typeof listObjectSchedulesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListRecipientSchedulesQuery(ctx.environment, { type: 'object', collection: params.collection, id: params.id }, query.page_size));
  }
}
