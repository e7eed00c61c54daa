import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, upsertChannelRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ConfigureChannelCommand } from './configure-channel.command';

@Controller()
export class ConfigureChannelController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(upsertChannelRoute)
  configure(@Input() { params, body }: RouteInput<typeof upsertChannelRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ConfigureChannelCommand(ctx, params.channel_key, body.channel));
  }
}
