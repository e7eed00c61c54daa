import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FeedResponseT, isSealed } from '@notify/contracts';
import { FeedQueries } from '@notify/projections/messages';
import { VariableQueries } from '@notify/projections/variables';
import { excludeFields } from './exclude-fields';
import { GetFeedQuery } from './get-feed.query';

/**
 * A user's feed. Entries are rendered when the message was created (in the locale of that
 * time); `locale` is accepted and not re-rendered (ADR 0073). Secret variables never reach `vars`.
 */
@QueryHandler(GetFeedQuery)
export class GetFeedHandler implements IQueryHandler<GetFeedQuery> {
  constructor(
    private readonly feeds: FeedQueries,
    private readonly variables: VariableQueries,
  ) {}

  async execute({ ctx, userId, channelId, query }: GetFeedQuery): Promise<Partial<FeedResponseT>> {
    const [page, values] = await Promise.all([this.feeds.read(ctx.environment, userId, channelId, query), this.variables.valuesFor(ctx.environment)]);
    const vars = Object.fromEntries(Object.entries(values).filter(([, v]) => !isSealed(v)));
    const answer: FeedResponseT = page
      ? { ...page, vars }
      : {
          entries: [],
          meta: { __typename: 'FeedMetadata', total_count: 0, unread_count: 0, unseen_count: 0 },
          page_info: { __typename: 'PageInfo', after: null, before: null, page_size: query.page_size },
          vars,
        };
    // Entries share objects with the feed cache: what `exclude` removes, it removes from a copy.
    return query.exclude?.length ? excludeFields(structuredClone(answer), query.exclude) : answer;
  }
}
