import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ObjectQueries } from '@notify/projections/objects';
import { PreferenceQueries } from '@notify/projections/preferences';
import { ListObjectsQuery } from './list-objects.query';

@QueryHandler(ListObjectsQuery)
export class ListObjectsHandler implements IQueryHandler<ListObjectsQuery> {
  constructor(
    private readonly objects: ObjectQueries,
    private readonly preferences: PreferenceQueries,
  ) {}

  async execute({ environment, collection, page }: ListObjectsQuery) {
    const result = await this.objects.list(environment, collection, page);
    if (!page.include?.includes('preferences')) return result;
    const sets = await this.preferences.forRecipients(
      environment,
      'object',
      collection,
      result.entries.map((o) => o.id),
    );
    return { ...result, entries: result.entries.map((o) => ({ ...o, preferences: sets.get(o.id) ?? [] })) };
  }
}
