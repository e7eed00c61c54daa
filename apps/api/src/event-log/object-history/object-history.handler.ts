import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { ObjectHistoryQuery } from './object-history.query';

@QueryHandler(ObjectHistoryQuery)
export class ObjectHistoryHandler implements IQueryHandler<ObjectHistoryQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute({ input }: ObjectHistoryQuery) {
    const { collection, object_id } = input.params;
    return this.history.recipientHistory(input.query.environment, { type: 'object', collection, id: object_id }, input.query);
  }
}
