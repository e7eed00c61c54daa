import { Command } from '@nestjs/cqrs';
import { BulkChannelMessagesBodyT, BulkOperationT, CHANNEL_BULK_ACTIONS } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class BulkChannelMessagesCommand extends Command<BulkOperationT> {
  constructor(
    readonly ctx: RequestContext,
    readonly channelId: string,
    readonly action: (typeof CHANNEL_BULK_ACTIONS)[number],
    readonly filter: BulkChannelMessagesBodyT,
  ) {
    super();
  }
}
