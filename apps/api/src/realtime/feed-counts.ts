import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { FeedQueries } from '@notify/projections/messages';
import { FeedCountsT, feedQueryOf } from './feed-filter';
import { FeedSubscription } from './feed-socket-session';

/**
 * A feed client's counts, computed exactly as the feed endpoint computes its `meta` for the same
 * options, so the badge a push sets agrees with the feed the client fetches next.
 */
@Injectable()
export class FeedCounts {
  private readonly feeds: FeedQueries;

  constructor(@Inject(DATABASE) database: Database) {
    this.feeds = new FeedQueries(database.dataSource);
  }

  async count(feed: FeedSubscription, clientParams: unknown): Promise<FeedCountsT> {
    const query = feedQueryOf(clientParams);
    const meta = await this.feeds.counts(feed.environment, feed.userId, feed.channelId, query);
    // An unidentified user has an empty feed.
    return meta
      ? { total_count: meta.total_count, unread_count: meta.unread_count, unseen_count: meta.unseen_count }
      : { total_count: 0, unread_count: 0, unseen_count: 0 };
  }
}
