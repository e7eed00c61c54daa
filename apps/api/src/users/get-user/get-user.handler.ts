import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { UserT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { UserQueries } from '@notify/projections/users';
import { GetUserQuery } from './get-user.query';

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery> {
  constructor(private readonly users: UserQueries) {}

  async execute({ environment, userId }: GetUserQuery): Promise<UserT> {
    const user = await this.users.get(environment, userId);
    if (!user) throw resourceMissing('user');
    return user;
  }
}
