import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { bulkChannelMessagesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { BulkChannelMessagesCommand } from './bulk-channel-messages.command';

@Controller()
export class BulkChannelMessagesController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(bulkChannelMessagesRoute)
  bulk(@Input() { params, body }: RouteInput<typeof bulkChannelMessagesRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new BulkChannelMessagesCommand(ctx, params.channel_id, params.action, body ?? {}));
  }
}
