import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listObjectMessagesRoute, listUserMessagesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListRecipientMessagesQuery } from './list-recipient-messages.query';

@Controller()
export class ListRecipientMessagesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listUserMessagesRoute)
  forUser(@Input() { params, query }: RouteInput<typeof listUserMessagesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListRecipientMessagesQuery(ctx.environment, { type: 'user', id: params.user_id }, query.page_size));
  }

  @Endpoint(listObjectMessagesRoute)
  forObject(@Input() { params, query }: RouteInput<typeof listObjectMessagesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListRecipientMessagesQuery(ctx.environment, { type: 'object', collection: params.collection, id: params.id }, query.page_size));
  }
}
