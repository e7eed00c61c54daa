import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { UserAsOfQuery } from './user-as-of.query';

@QueryHandler(UserAsOfQuery)
export class UserAsOfHandler implements IQueryHandler<UserAsOfQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute({ input }: UserAsOfQuery) {
    return this.history.userAsOf(input.query.environment, input.params.user_id, input.query.as_of);
  }
}
