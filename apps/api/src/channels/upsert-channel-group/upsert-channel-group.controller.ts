import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, upsertChannelGroupRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { UpsertChannelGroupCommand } from './upsert-channel-group.command';

@Controller()
export class UpsertChannelGroupController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(upsertChannelGroupRoute)
  upsert(@Input() { params, body }: RouteInput<typeof upsertChannelGroupRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertChannelGroupCommand(ctx, params.channel_group_key, body.channel_group));
  }
}
