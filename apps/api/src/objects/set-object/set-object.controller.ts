import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, setObjectRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { SetObjectCommand } from './set-object.command';

@Controller()
export class SetObjectController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(setObjectRoute)
  set(@Input() { params, body }: RouteInput<typeof setObjectRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new SetObjectCommand(ctx, params.collection, params.id, body));
  }
}
