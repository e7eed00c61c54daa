import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { ListEventTypesQuery } from './list-event-types.query';

@QueryHandler(ListEventTypesQuery)
export class ListEventTypesHandler implements IQueryHandler<ListEventTypesQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute() {
    return this.history.types();
  }
}
