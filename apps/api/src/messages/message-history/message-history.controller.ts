import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listMessageActivitiesRoute, listMessageDeliveryLogsRoute, listMessageEventsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListMessageHistoryQuery } from './message-history.query';

@Controller()
export class MessageHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listMessageEventsRoute)
  events(@Input() { params, query }: RouteInput<typeof listMessageEventsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListMessageHistoryQuery(ctx, params.message_id, 'events', query));
  }

  @Endpoint(listMessageDeliveryLogsRoute)
  deliveryLogs(@Input() { params, query }: RouteInput<typeof listMessageDeliveryLogsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListMessageHistoryQuery(ctx, params.message_id, 'delivery_logs', query));
  }

  @Endpoint(listMessageActivitiesRoute)
  activities(@Input() { params, query }: RouteInput<typeof listMessageActivitiesRoute>, @Ctx() ctx: RequestContext) {
    const { trigger_data, ...page } = query;
    return this.queries.execute(new ListMessageHistoryQuery(ctx, params.message_id, 'activities', page, trigger_data));
  }
}
