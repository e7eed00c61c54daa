import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listObjectSchedulesRoute, listSchedulesRoute, listUserSchedulesRoute, RouteInput, toRecipientRef } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListSchedulesQuery } from './list-schedules.query';

@Controller()
export class ListSchedulesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listSchedulesRoute)
  list(@Input() { query: { workflow, tenant, recipients, ...page } }: RouteInput<typeof listSchedulesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new ListSchedulesQuery(ctx.environment, { workflow, tenant, recipients: recipients?.map(toRecipientRef) }, page),
    );
  }

  @Endpoint(listUserSchedulesRoute)
  forUser(
    @Input() { params, query: { workflow, tenant, ...page } }: RouteInput<typeof listUserSchedulesRoute>,
    @Ctx() ctx: RequestContext,
  ) {
    const recipient = { type: 'user' as const, id: params.user_id };
    return this.queries.execute(new ListSchedulesQuery(ctx.environment, { workflow, tenant, recipients: [recipient] }, page, recipient));
  }

  @Endpoint(listObjectSchedulesRoute)
  forObject(
    @Input() { params, query: { workflow, tenant, ...page } }: RouteInput<typeof listObjectSchedulesRoute>,
    @Ctx() ctx: RequestContext,
  ) {
    const recipient = { type: 'object' as const, collection: params.collection, id: params.id };
    return this.queries.execute(new ListSchedulesQuery(ctx.environment, { workflow, tenant, recipients: [recipient] }, page, recipient));
  }
}
