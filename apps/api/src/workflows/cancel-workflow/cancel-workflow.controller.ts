import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { cancelWorkflowRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { Idempotency, IdempotencyScope, IdempotentRoute, IdempotentRoutes } from '../../shared/idempotent-route';
import { CancelWorkflowCommand } from './cancel-workflow.command';

@Controller()
export class CancelWorkflowController {
  constructor(
    private readonly commands: CommandBus,
    private readonly idempotency: IdempotentRoutes,
  ) {}

  @Endpoint(cancelWorkflowRoute)
  @IdempotentRoute()
  cancel(
    @Input() { params, body }: RouteInput<typeof cancelWorkflowRoute>,
    @Ctx() ctx: RequestContext,
    @Idempotency() once: IdempotencyScope,
  ) {
    return this.idempotency.run(once, () => this.commands.execute(new CancelWorkflowCommand(ctx, params.key, body)));
  }
}
