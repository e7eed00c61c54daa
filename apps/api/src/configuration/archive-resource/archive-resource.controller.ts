import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { archiveEmailLayoutRoute, archivePartialRoute, archiveWorkflowRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ArchiveResourceCommand } from './archive-resource.command';

@Controller()
export class ArchiveResourceController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(archiveWorkflowRoute)
  workflow(@Input() { params }: RouteInput<typeof archiveWorkflowRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ArchiveResourceCommand(ctx, 'workflow', params.workflow_key));
  }

  @Endpoint(archivePartialRoute)
  partial(@Input() { params }: RouteInput<typeof archivePartialRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ArchiveResourceCommand(ctx, 'partial', params.partial_key as string));
  }

  @Endpoint(archiveEmailLayoutRoute)
  emailLayout(@Input() { params }: RouteInput<typeof archiveEmailLayoutRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ArchiveResourceCommand(ctx, 'email_layout', params.email_layout_key as string));
  }
}
