import { Command } from '@nestjs/cqrs';
import { ChannelDataT, RecipientRefT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class SetChannelDataCommand extends Command<ChannelDataT> {
  constructor(
    readonly ctx: RequestContext,
    readonly recipient: RecipientRefT,
    readonly channelId: string,
    readonly data: Record<string, unknown>,
  ) {
    super();
  }
}
