import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ChannelDataT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { ChannelDataQueries } from '@notify/projections/channel-data';
import { RecipientExistence } from '../../recipients/recipient-exists';
import { toChannelData } from '../channel-data.response';
import { GetChannelDataQuery } from './get-channel-data.query';

@QueryHandler(GetChannelDataQuery)
export class GetChannelDataHandler implements IQueryHandler<GetChannelDataQuery> {
  constructor(
    private readonly channelData: ChannelDataQueries,
    private readonly existence: RecipientExistence,
  ) {}

  async execute({ environment, recipient, channelId }: GetChannelDataQuery): Promise<ChannelDataT> {
    await this.existence.assert(environment, recipient);
    const found = await this.channelData.get(environment, recipient, channelId);
    if (!found) throw resourceMissing('channel data');
    return toChannelData(found.channelId, found.provider, found.data);
  }
}
