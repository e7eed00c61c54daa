import { Query } from '@nestjs/cqrs';
import { ChannelDataT, RecipientRefT } from '@notify/contracts';

export class GetChannelDataQuery extends Query<ChannelDataT> {
  constructor(
    readonly environment: string,
    readonly recipient: RecipientRefT,
    readonly channelId: string,
  ) {
    super();
  }
}
