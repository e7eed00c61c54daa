import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { previewScheduleRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { PreviewScheduleQuery } from './preview-schedule.query';

@Controller()
export class PreviewScheduleController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(previewScheduleRoute)
  preview(@Input() { params, query }: RouteInput<typeof previewScheduleRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new PreviewScheduleQuery(ctx.environment, params.schedule_id, query.count));
  }
}
