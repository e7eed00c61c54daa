import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { notifyCancelRoute, notifyRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { Idempotency, IdempotencyScope, IdempotentRoute, IdempotentRoutes } from '../../shared/idempotent-route';
import { CancelWorkflowCommand } from '../cancel-workflow/cancel-workflow.command';
import { TriggerWorkflowCommand } from '../trigger-workflow/trigger-workflow.command';

/** `/v1/notify` and `/v1/notify/cancel`: the trigger and cancel use cases with the workflow key in the body. */
@Controller()
export class NotifyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly idempotency: IdempotentRoutes,
  ) {}

  @Endpoint(notifyRoute)
  @IdempotentRoute()
  notify(@Input() { body }: RouteInput<typeof notifyRoute>, @Ctx() ctx: RequestContext, @Idempotency() once: IdempotencyScope) {
    const { name, ...trigger } = body;
    return this.idempotency.run(once, async () => {
      const { workflow_run_id } = await this.commands.execute(new TriggerWorkflowCommand(ctx, name, trigger));
      return { result_id: workflow_run_id };
    });
  }

  @Endpoint(notifyCancelRoute)
  @IdempotentRoute()
  cancel(
    @Input() { body }: RouteInput<typeof notifyCancelRoute>,
    @Ctx() ctx: RequestContext,
    @Idempotency() once: IdempotencyScope,
  ): Promise<void> {
    const { name, ...cancel } = body;
    return this.idempotency.run(once, async () => {
      await this.commands.execute(new CancelWorkflowCommand(ctx, name, cancel));
    });
  }
}
