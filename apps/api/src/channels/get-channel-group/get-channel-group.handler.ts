import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { resourceMissing } from '@notify/domain';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { presentChannelGroup } from '../present-channel-group';
import { GetChannelGroupQuery } from './get-channel-group.query';

@QueryHandler(GetChannelGroupQuery)
export class GetChannelGroupHandler implements IQueryHandler<GetChannelGroupQuery> {
  constructor(
    private readonly groups: ChannelGroupQueries,
    private readonly channels: ChannelAdminQueries,
  ) {}

  async execute({ key }: GetChannelGroupQuery) {
    const group = await this.groups.get(key);
    if (!group) throw resourceMissing('channel group');
    return presentChannelGroup(group, await this.channels.byKeys(group.channel_rules.map((r) => r.channel_key)));
  }
}
