import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { deleteUserRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DeleteUserCommand } from './delete-user.command';

@Controller()
export class DeleteUserController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(deleteUserRoute)
  async delete(@Input() { params }: RouteInput<typeof deleteUserRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteUserCommand(ctx, params.user_id));
  }
}
