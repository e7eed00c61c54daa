import { Command } from '@nestjs/cqrs';
import { ChannelRequest, ChannelT } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class ConfigureChannelCommand extends Command<{ channel: ChannelT }> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly channel: z.infer<typeof ChannelRequest>,
  ) {
    super();
  }
}
