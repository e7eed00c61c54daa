import { Controller, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, triggerWorkflowRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { IdempotencyInterceptor } from '../../shared/idempotency.interceptor';
import { TriggerWorkflowCommand } from './trigger-workflow.command';

@Controller()
export class TriggerWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(triggerWorkflowRoute)
  @UseInterceptors(IdempotencyInterceptor)
  trigger(@Input() { params, body }: RouteInput<typeof triggerWorkflowRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new TriggerWorkflowCommand(ctx, params.key, body));
  }
}
