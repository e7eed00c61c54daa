import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FeedResponseT } from '@notify/contracts';
import { FeedQueries } from '@notify/projections/messages';
import { excludeFields } from './exclude-fields';
import { GetFeedQuery } from './get-feed.query';

/**
 * A user's feed. Entries are rendered when the message was created (in the locale of that
 * time); `locale` is accepted and not re-rendered (ADR 0073). Secret variables never reach `vars`.
 */
@QueryHandler(GetFeedQuery)
export class GetFeedHandler implements IQueryHandler<GetFeedQuery> {
  constructor(private readonly feeds: FeedQueries) {}

  async execute({ ctx, userId, channelId, query }: GetFeedQuery): Promise<Partial<FeedResponseT>> {
    const answer = await this.feeds.read(ctx.environment, userId, channelId, query);
    // Entries share objects with the feed cache: what `exclude` removes, it removes from a copy.
    return query.exclude?.length ? excludeFields(structuredClone(answer), query.exclude) : answer;
  }
}
