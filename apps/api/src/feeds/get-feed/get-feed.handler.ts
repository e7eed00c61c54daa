import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FeedQueries } from '@notify/projections/messages';
import { excludeFields } from './exclude-fields';
import { GetFeedQuery } from './get-feed.query';

/**
 * A user's feed, as the JSON text of the response (the feed queries splice cached text). Entries
 * are rendered when the message was created (in the locale of that time); `locale` is accepted
 * and not re-rendered (ADR 0073). Secret variables never reach `vars`.
 */
@QueryHandler(GetFeedQuery)
export class GetFeedHandler implements IQueryHandler<GetFeedQuery> {
  constructor(private readonly feeds: FeedQueries) {}

  async execute({ ctx, userId, channelId, query }: GetFeedQuery): Promise<string> {
    const json = await this.feeds.readJson(ctx.environment, userId, channelId, query);
    return query.exclude?.length ? JSON.stringify(excludeFields(JSON.parse(json) as unknown, query.exclude)) : json;
  }
}
