import { Command } from '@nestjs/cqrs';
import { ChannelGroupRequest, ChannelGroupT } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class UpsertChannelGroupCommand extends Command<{ channel_group: ChannelGroupT }> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly group: z.infer<typeof ChannelGroupRequest>,
  ) {
    super();
  }
}
