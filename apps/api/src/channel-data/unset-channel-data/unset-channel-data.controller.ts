import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, unsetObjectChannelDataRoute, unsetUserChannelDataRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { UnsetChannelDataCommand } from './unset-channel-data.command';

@Controller()
export class UnsetChannelDataController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(unsetUserChannelDataRoute)
  async forUser(@Input() { params }: RouteInput<typeof unsetUserChannelDataRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new UnsetChannelDataCommand(ctx, { type: 'user', id: params.user_id }, params.channel_id));
  }

  @Endpoint(unsetObjectChannelDataRoute)
  async forObject(@Input() { params }: RouteInput<typeof unsetObjectChannelDataRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(
      new UnsetChannelDataCommand(ctx, { type: 'object', collection: params.collection, id: params.object_id }, params.channel_id),
    );
  }
}
