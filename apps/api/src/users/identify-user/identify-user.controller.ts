import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { identifyUserRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { IdentifyUserCommand } from './identify-user.command';

@Controller()
export class IdentifyUserController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(identifyUserRoute)
  identify(@Input() { params, body }: RouteInput<typeof identifyUserRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new IdentifyUserCommand(ctx, params.user_id, body));
  }
}
