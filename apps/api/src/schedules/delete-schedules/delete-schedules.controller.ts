import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { deleteSchedulesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DeleteSchedulesCommand } from './delete-schedules.command';

@Controller()
export class DeleteSchedulesController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(deleteSchedulesRoute)
  delete(@Input() { body }: RouteInput<typeof deleteSchedulesRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new DeleteSchedulesCommand(ctx, body.schedule_ids));
  }
}
