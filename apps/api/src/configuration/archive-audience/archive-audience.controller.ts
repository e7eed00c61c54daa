import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { archiveAudienceRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ArchiveAudienceCommand } from './archive-audience.command';

@Controller()
export class ArchiveAudienceController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(archiveAudienceRoute)
  archive(@Input() { params }: RouteInput<typeof archiveAudienceRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ArchiveAudienceCommand(ctx, params.audience_key));
  }
}
