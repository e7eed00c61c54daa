import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PreferenceQueries } from '@notify/projections/preferences';
import { UserQueries } from '@notify/projections/users';
import { ListUsersQuery } from './list-users.query';

@QueryHandler(ListUsersQuery)
export class ListUsersHandler implements IQueryHandler<ListUsersQuery> {
  constructor(
    private readonly users: UserQueries,
    private readonly preferences: PreferenceQueries,
  ) {}

  async execute({ environment, page }: ListUsersQuery) {
    const result = await this.users.list(environment, page);
    if (!page.include?.includes('preferences')) return result;
    const sets = await this.preferences.forRecipients(
      environment,
      'user',
      '',
      result.entries.map((u) => u.id),
    );
    return { ...result, entries: result.entries.map((u) => ({ ...u, preferences: sets.get(u.id) ?? [] })) };
  }
}
