import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { UserQueries } from '@notify/projections/users';
import { ListUsersQuery } from './list-users.query';

@QueryHandler(ListUsersQuery)
export class ListUsersHandler implements IQueryHandler<ListUsersQuery> {
  constructor(private readonly users: UserQueries) {}

  execute({ environment, page }: ListUsersQuery) {
    return this.users.list(environment, page);
  }
}
