import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { explainMessageRoute, explainRunRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ExplainQuery } from './explain.query';

/** Public API (secret key): the explanation shows what the same key already reads of runs and messages, from the log. */
@Controller()
export class ExplainController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(explainRunRoute)
  run(@Input() { params }: RouteInput<typeof explainRunRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ExplainQuery(ctx.environment, { runId: params.id }));
  }

  @Endpoint(explainMessageRoute)
  message(@Input() { params }: RouteInput<typeof explainMessageRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ExplainQuery(ctx.environment, { messageId: params.message_id }));
  }
}
