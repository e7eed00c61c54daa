import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, runWorkflowRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { RunWorkflowCommand } from './run-workflow.command';

@Controller()
export class RunWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(runWorkflowRoute)
  run(@Input() { params, body }: RouteInput<typeof runWorkflowRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new RunWorkflowCommand(ctx, params.workflow_key, body));
  }
}
