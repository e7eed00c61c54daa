import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { activateWorkflowRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ActivateWorkflowCommand } from './activate-workflow.command';

@Controller()
export class ActivateWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  /** The status comes in the body (the SDK) or the query (the CLI); activating is the default. */
  @Endpoint(activateWorkflowRoute)
  activate(@Input() { params, query, body }: RouteInput<typeof activateWorkflowRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ActivateWorkflowCommand(ctx, params.workflow_key, body?.status ?? query.status ?? true));
  }
}
