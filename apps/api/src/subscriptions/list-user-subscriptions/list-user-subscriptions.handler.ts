import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PreferenceQueries } from '@notify/projections/preferences';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { withRecipientPreferences } from '../with-preferences';
import { ListUserSubscriptionsQuery } from './list-user-subscriptions.query';

@QueryHandler(ListUserSubscriptionsQuery)
export class ListUserSubscriptionsHandler implements IQueryHandler<ListUserSubscriptionsQuery> {
  constructor(
    private readonly subscriptions: SubscriptionQueries,
    private readonly preferences: PreferenceQueries,
  ) {}

  async execute({ environment, userId, options }: ListUserSubscriptionsQuery) {
    const objects = options.objects?.filter((o): o is { collection: string; id: string } => typeof o !== 'string');
    const page = await this.subscriptions.subscriptionsOf(environment, { type: 'user', id: userId }, options, objects);
    if (!options.include?.includes('preferences')) return page;
    return { ...page, entries: await withRecipientPreferences(this.preferences, environment, page.entries) };
  }
}
