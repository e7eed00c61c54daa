import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { eraseUserRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { EraseUserCommand } from './erase-user.command';

@Controller()
export class EraseUserController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(eraseUserRoute)
  erase(@Input() { params, body }: RouteInput<typeof eraseUserRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new EraseUserCommand(ctx, params.user_id, body.reason));
  }
}
