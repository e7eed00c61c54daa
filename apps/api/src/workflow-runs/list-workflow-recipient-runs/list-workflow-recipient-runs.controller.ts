import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listWorkflowRecipientRunsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListWorkflowRecipientRunsQuery } from './list-workflow-recipient-runs.query';

@Controller()
export class ListWorkflowRecipientRunsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listWorkflowRecipientRunsRoute)
  list(@Input() { query }: RouteInput<typeof listWorkflowRecipientRunsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListWorkflowRecipientRunsQuery(ctx.environment, query));
  }
}
