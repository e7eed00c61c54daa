import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, updateSchedulesRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { UpdateSchedulesCommand } from './update-schedules.command';

@Controller()
export class UpdateSchedulesController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(updateSchedulesRoute)
  update(@Input() { body }: RouteInput<typeof updateSchedulesRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpdateSchedulesCommand(ctx, body));
  }
}
