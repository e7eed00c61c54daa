import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { guideRoutes, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ArchiveGuideCommand } from './archive-guide.command';

@Controller()
export class ArchiveGuideController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(guideRoutes.archive)
  archive(@Input() { params }: RouteInput<typeof guideRoutes.archive>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ArchiveGuideCommand(ctx, params.guide_key));
  }
}
