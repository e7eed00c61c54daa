import { Module } from '@nestjs/common';
import { FeedLocalizer, LinkTracker, ReadModelLookups } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { DATABASE, ENGINE_LOOKUPS, EVENT_STORE, LINK_TRACKER, TEMPLATE_RENDERER } from '@notify/platform';
import { FeedQueries } from '@notify/projections/messages';
import type { TemplateRenderer } from '@notify/templating';
import { GetFeedSettingsController } from './get-feed-settings/get-feed-settings.controller';
import { GetFeedController } from './get-feed/get-feed.controller';
import { GetFeedHandler } from './get-feed/get-feed.handler';

/** In-app feeds: a user's messages on an in-app channel with exact counts. */
@Module({
  controllers: [GetFeedController, GetFeedSettingsController],
  providers: [
    { provide: FeedQueries, inject: [DATABASE], useFactory: (db: Database) => new FeedQueries(db.dataSource) },
    {
      provide: FeedLocalizer,
      inject: [DATABASE, EVENT_STORE, ENGINE_LOOKUPS, LINK_TRACKER, LOGGER, TEMPLATE_RENDERER],
      useFactory: (
        db: Database,
        store: EventStore,
        lookups: ReadModelLookups,
        links: LinkTracker | null,
        logger: Logger,
        templates: TemplateRenderer,
      ) =>
        new FeedLocalizer(db.dataSource, store, lookups, templates, links, (messageId, reason) =>
          logger.warn({ message_id: messageId, reason }, 'feed entry not re-rendered in the asked locale'),
        ),
    },
    GetFeedHandler,
  ],
})
export class FeedsModule {}
