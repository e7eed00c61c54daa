import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { ConfigureChannelController } from './configure-channel/configure-channel.controller';
import { ConfigureChannelHandler } from './configure-channel/configure-channel.handler';
import { DeleteChannelGroupController } from './delete-channel-group/delete-channel-group.controller';
import { DeleteChannelGroupHandler } from './delete-channel-group/delete-channel-group.handler';
import { GetChannelGroupController } from './get-channel-group/get-channel-group.controller';
import { GetChannelGroupHandler } from './get-channel-group/get-channel-group.handler';
import { GetChannelController } from './get-channel/get-channel.controller';
import { GetChannelHandler } from './get-channel/get-channel.handler';
import { ListChannelGroupsController } from './list-channel-groups/list-channel-groups.controller';
import { ListChannelGroupsHandler } from './list-channel-groups/list-channel-groups.handler';
import { ListChannelsController } from './list-channels/list-channels.controller';
import { ListChannelsHandler } from './list-channels/list-channels.handler';
import { UpsertChannelGroupController } from './upsert-channel-group/upsert-channel-group.controller';
import { UpsertChannelGroupHandler } from './upsert-channel-group/upsert-channel-group.handler';
import { accountSettingsDeps } from '../shared/account-settings-deps';

/** Channels and channel groups in the management API (account-wide, settings per environment). */
@Module({
  controllers: [
    ConfigureChannelController,
    GetChannelController,
    ListChannelsController,
    UpsertChannelGroupController,
    GetChannelGroupController,
    ListChannelGroupsController,
    DeleteChannelGroupController,
  ],
  providers: [
    accountSettingsDeps,
    { provide: ChannelAdminQueries, inject: [DATABASE], useFactory: (db: Database) => new ChannelAdminQueries(db.dataSource) },
    { provide: ChannelGroupQueries, inject: [DATABASE], useFactory: (db: Database) => new ChannelGroupQueries(db.dataSource) },
    ConfigureChannelHandler,
    GetChannelHandler,
    ListChannelsHandler,
    UpsertChannelGroupHandler,
    GetChannelGroupHandler,
    ListChannelGroupsHandler,
    DeleteChannelGroupHandler,
  ],
})
export class ChannelsModule {}
