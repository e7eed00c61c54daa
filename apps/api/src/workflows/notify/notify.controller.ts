import { Controller, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { notifyCancelRoute, notifyRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { IdempotencyInterceptor } from '../../shared/idempotency.interceptor';
import { CancelWorkflowCommand } from '../cancel-workflow/cancel-workflow.command';
import { TriggerWorkflowCommand } from '../trigger-workflow/trigger-workflow.command';

/** `/v1/notify` and `/v1/notify/cancel`: the trigger and cancel use cases with the workflow key in the body. */
@Controller()
export class NotifyController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(notifyRoute)
  @UseInterceptors(IdempotencyInterceptor)
  async notify(@Input() { body }: RouteInput<typeof notifyRoute>, @Ctx() ctx: RequestContext) {
    const { name, ...trigger } = body;
    const { workflow_run_id } = await this.commands.execute(new TriggerWorkflowCommand(ctx, name, trigger));
    return { result_id: workflow_run_id };
  }

  @Endpoint(notifyCancelRoute)
  @UseInterceptors(IdempotencyInterceptor)
  async cancel(@Input() { body }: RouteInput<typeof notifyCancelRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    const { name, ...cancel } = body;
    await this.commands.execute(new CancelWorkflowCommand(ctx, name, cancel));
  }
}
