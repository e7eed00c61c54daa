import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, triggerWorkflowRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { Idempotency, IdempotencyScope, IdempotentRoute, IdempotentRoutes } from '../../shared/idempotent-route';
import { TriggerWorkflowCommand } from './trigger-workflow.command';

@Controller()
export class TriggerWorkflowController {
  constructor(
    private readonly commands: CommandBus,
    private readonly idempotency: IdempotentRoutes,
  ) {}

  @Endpoint(triggerWorkflowRoute)
  @IdempotentRoute()
  trigger(
    @Input() { params, body }: RouteInput<typeof triggerWorkflowRoute>,
    @Ctx() ctx: RequestContext,
    @Idempotency() once: IdempotencyScope,
  ) {
    return this.idempotency.run(once, () => this.commands.execute(new TriggerWorkflowCommand(ctx, params.key, body)));
  }
}
