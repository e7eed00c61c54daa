import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SECRET_BOX, SecretBox } from '@notify/application';
import { resourceMissing } from '@notify/domain';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { presentChannel } from '../present-channel';
import { GetChannelQuery } from './get-channel.query';

@QueryHandler(GetChannelQuery)
export class GetChannelHandler implements IQueryHandler<GetChannelQuery> {
  constructor(
    private readonly channels: ChannelAdminQueries,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ key }: GetChannelQuery) {
    const row = await this.channels.get(key);
    if (!row) throw resourceMissing('channel');
    return presentChannel(row, true, this.box);
  }
}
