import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { createSchedulesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { CreateSchedulesCommand } from './create-schedules.command';

@Controller()
export class CreateSchedulesController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(createSchedulesRoute)
  create(@Input() { body }: RouteInput<typeof createSchedulesRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CreateSchedulesCommand(ctx, body));
  }
}
