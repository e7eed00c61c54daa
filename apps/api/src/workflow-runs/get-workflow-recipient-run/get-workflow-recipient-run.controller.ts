import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getWorkflowRecipientRunRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetWorkflowRecipientRunQuery } from './get-workflow-recipient-run.query';

@Controller()
export class GetWorkflowRecipientRunController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getWorkflowRecipientRunRoute)
  get(@Input() { params }: RouteInput<typeof getWorkflowRecipientRunRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetWorkflowRecipientRunQuery(ctx.environment, params.id));
  }
}
