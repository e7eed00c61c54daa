import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { FeedCountsT, FeedFilter } from './feed-filter';
import { FeedSubscription } from './feed-socket-session';

/** A user's in-app feed counts for one client's options, from the messages read model. */
@Injectable()
export class FeedCounts {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async count(feed: FeedSubscription, filter: FeedFilter): Promise<FeedCountsT> {
    const params: unknown[] = [feed.environment, feed.userId, feed.channelId];
    const where = ["environment = $1", "recipient_type = 'user'", 'recipient_id = $2', 'channel_id = $3'];
    if (filter.archived === 'exclude') where.push('archived_at IS NULL');
    if (filter.archived === 'only') where.push('archived_at IS NOT NULL');
    if (filter.tenant !== undefined) {
      params.push(filter.tenant);
      where.push(`tenant = $${params.length}`);
    }
    if (filter.has_tenant !== undefined) where.push(filter.has_tenant ? 'tenant IS NOT NULL' : 'tenant IS NULL');
    if (filter.source !== undefined) {
      params.push(filter.source);
      where.push(`workflow_key = $${params.length}`);
    }
    if (filter.workflow_categories) {
      params.push(filter.workflow_categories);
      where.push(`workflow_categories && $${params.length}::text[]`);
    }
    const [row] = await this.database.dataSource.query<{ total: number; unread: number; unseen: number }[]>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE read_at IS NULL)::int AS unread, count(*) FILTER (WHERE seen_at IS NULL)::int AS unseen
       FROM rm_messages WHERE ${where.join(' AND ')}`,
      params,
    );
    return { total_count: row.total, unread_count: row.unread, unseen_count: row.unseen };
  }
}
