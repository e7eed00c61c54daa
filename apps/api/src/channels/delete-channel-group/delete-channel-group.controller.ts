import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { deleteChannelGroupRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DeleteChannelGroupCommand } from './delete-channel-group.command';

@Controller()
export class DeleteChannelGroupController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(deleteChannelGroupRoute)
  async delete(@Input() { params }: RouteInput<typeof deleteChannelGroupRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteChannelGroupCommand(ctx, params.channel_group_key));
  }
}
