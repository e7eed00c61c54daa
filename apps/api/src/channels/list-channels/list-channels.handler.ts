import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SECRET_BOX, SecretBox } from '@notify/application';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { presentChannel } from '../present-channel';
import { ListChannelsQuery } from './list-channels.query';

@QueryHandler(ListChannelsQuery)
export class ListChannelsHandler implements IQueryHandler<ListChannelsQuery> {
  constructor(
    private readonly channels: ChannelAdminQueries,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ query }: ListChannelsQuery) {
    const { entries, page_info } = await this.channels.list(query, { id: query.id });
    const withSettings = query.include?.includes('environment_settings') ?? false;
    return { entries: entries.map((row) => presentChannel(row, withSettings, this.box)), page_info };
  }
}
