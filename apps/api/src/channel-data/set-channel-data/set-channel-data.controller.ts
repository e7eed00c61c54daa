import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, setObjectChannelDataRoute, setUserChannelDataRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { SetChannelDataCommand } from './set-channel-data.command';

@Controller()
export class SetChannelDataController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(setUserChannelDataRoute)
  forUser(@Input() { params, body }: RouteInput<typeof setUserChannelDataRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new SetChannelDataCommand(ctx, { type: 'user', id: params.user_id }, params.channel_id, body.data as Record<string, unknown>),
    );
  }

  @Endpoint(setObjectChannelDataRoute)
  forObject(@Input() { params, body }: RouteInput<typeof setObjectChannelDataRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new SetChannelDataCommand(
        ctx,
        { type: 'object', collection: params.collection, id: params.object_id },
        params.channel_id,
        body.data as Record<string, unknown>,
      ),
    );
  }
}
