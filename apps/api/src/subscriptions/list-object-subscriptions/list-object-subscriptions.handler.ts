import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toRecipientRef } from '@notify/contracts';
import { PreferenceQueries } from '@notify/projections/preferences';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { withRecipientPreferences } from '../with-preferences';
import { ListObjectSubscriptionsQuery } from './list-object-subscriptions.query';

@QueryHandler(ListObjectSubscriptionsQuery)
export class ListObjectSubscriptionsHandler implements IQueryHandler<ListObjectSubscriptionsQuery> {
  constructor(
    private readonly subscriptions: SubscriptionQueries,
    private readonly preferences: PreferenceQueries,
  ) {}

  async execute({ environment, collection, objectId, options }: ListObjectSubscriptionsQuery) {
    // mode object: who subscribes to this object; mode recipient: what this object subscribes to.
    const page =
      options.mode === 'object'
        ? await this.subscriptions.subscribersOf(environment, collection, objectId, options, options.recipients?.map(toRecipientRef))
        : await this.subscriptions.subscriptionsOf(environment, { type: 'object', collection, id: objectId }, options, options.objects);
    if (!options.include?.includes('preferences')) return page;
    return { ...page, entries: await withRecipientPreferences(this.preferences, environment, page.entries) };
  }
}
