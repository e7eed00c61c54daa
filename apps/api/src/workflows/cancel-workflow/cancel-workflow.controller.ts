import { Controller, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { cancelWorkflowRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { IdempotencyInterceptor } from '../../shared/idempotency.interceptor';
import { CancelWorkflowCommand } from './cancel-workflow.command';

@Controller()
export class CancelWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(cancelWorkflowRoute)
  @UseInterceptors(IdempotencyInterceptor)
  cancel(@Input() { params, body }: RouteInput<typeof cancelWorkflowRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CancelWorkflowCommand(ctx, params.key, body));
  }
}
