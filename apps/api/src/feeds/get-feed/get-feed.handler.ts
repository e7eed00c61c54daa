import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FeedLocalizer, LocalizableEntry } from '@notify/application';
import { FeedQueries } from '@notify/projections/messages';
import { excludeFields } from './exclude-fields';
import { GetFeedQuery } from './get-feed.query';

/**
 * A user's feed, as the JSON text of the response (the feed queries splice cached text). Entries
 * are rendered when the message was created, in the recipient's locale of that time; with
 * `locale` they are rendered again in it (ADR 0073). Secret variables never reach `vars`.
 */
@QueryHandler(GetFeedQuery)
export class GetFeedHandler implements IQueryHandler<GetFeedQuery> {
  constructor(
    private readonly feeds: FeedQueries,
    private readonly localizer: FeedLocalizer,
  ) {}

  async execute({ ctx, userId, channelId, query }: GetFeedQuery): Promise<string> {
    const json = await this.feeds.readJson(ctx.environment, userId, channelId, query);
    if (!query.locale && !query.exclude?.length) return json;
    const answer = JSON.parse(json) as { entries: LocalizableEntry[] };
    if (query.locale) await this.localizer.localize(ctx.environment, userId, answer.entries, query.locale);
    return JSON.stringify(query.exclude?.length ? excludeFields(answer, query.exclude) : answer);
  }
}
