import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { mergeUserRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { MergeUserCommand } from './merge-user.command';

@Controller()
export class MergeUserController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(mergeUserRoute)
  merge(@Input() { params, body }: RouteInput<typeof mergeUserRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new MergeUserCommand(ctx, params.user_id, body.from_user_id));
  }
}
