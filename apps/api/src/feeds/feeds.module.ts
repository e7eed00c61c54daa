import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { FeedQueries } from '@notify/projections/messages';
import { GetFeedSettingsController } from './get-feed-settings/get-feed-settings.controller';
import { GetFeedController } from './get-feed/get-feed.controller';
import { GetFeedHandler } from './get-feed/get-feed.handler';

/** In-app feeds: a user's messages on an in-app channel with exact counts. */
@Module({
  controllers: [GetFeedController, GetFeedSettingsController],
  providers: [
    { provide: FeedQueries, inject: [DATABASE], useFactory: (db: Database) => new FeedQueries(db.dataSource) },
    GetFeedHandler,
  ],
})
export class FeedsModule {}
