import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { UserHistoryQuery } from './user-history.query';

@QueryHandler(UserHistoryQuery)
export class UserHistoryHandler implements IQueryHandler<UserHistoryQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute({ input }: UserHistoryQuery) {
    return this.history.recipientHistory(input.query.environment, { type: 'user', id: input.params.user_id }, input.query);
  }
}
