import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { bulkChannelMessagesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, PublicUrl, RequestContext } from '@notify/http';
import { withProgressUrl } from '../../bulk-operations/progress-url';
import { BulkChannelMessagesCommand } from './bulk-channel-messages.command';

@Controller()
export class BulkChannelMessagesController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(bulkChannelMessagesRoute)
  async bulk(
    @Input() { params, body }: RouteInput<typeof bulkChannelMessagesRoute>,
    @Ctx() ctx: RequestContext,
    @PublicUrl() publicUrl: string,
  ) {
    return withProgressUrl(
      await this.commands.execute(new BulkChannelMessagesCommand(ctx, params.channel_id, params.action, body ?? {})),
      publicUrl,
    );
  }
}
