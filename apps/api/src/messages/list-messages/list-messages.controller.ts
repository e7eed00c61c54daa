import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listMessagesRoute, listObjectMessagesRoute, listUserMessagesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListMessagesQuery } from './list-messages.query';

@Controller()
export class ListMessagesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listMessagesRoute)
  list(@Input() { query }: RouteInput<typeof listMessagesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListMessagesQuery(ctx, null, query));
  }

  @Endpoint(listUserMessagesRoute)
  forUser(@Input() { params, query }: RouteInput<typeof listUserMessagesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListMessagesQuery(ctx, { type: 'user', id: params.user_id }, query));
  }

  @Endpoint(listObjectMessagesRoute)
  forObject(@Input() { params, query }: RouteInput<typeof listObjectMessagesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListMessagesQuery(ctx, { type: 'object', collection: params.collection, id: params.id }, query));
  }
}
