import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { presentChannelGroup } from '../present-channel-group';
import { ListChannelGroupsQuery } from './list-channel-groups.query';

@QueryHandler(ListChannelGroupsQuery)
export class ListChannelGroupsHandler implements IQueryHandler<ListChannelGroupsQuery> {
  constructor(
    private readonly groups: ChannelGroupQueries,
    private readonly channels: ChannelAdminQueries,
  ) {}

  async execute({ page }: ListChannelGroupsQuery) {
    const { entries, page_info } = await this.groups.list(page);
    const channels = await this.channels.byKeys([...new Set(entries.flatMap((g) => g.channel_rules.map((r) => r.channel_key)))]);
    return { entries: entries.map((g) => presentChannelGroup(g, channels)), page_info };
  }
}
