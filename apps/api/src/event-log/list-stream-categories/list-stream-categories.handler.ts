import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { ListStreamCategoriesQuery } from './list-stream-categories.query';

@QueryHandler(ListStreamCategoriesQuery)
export class ListStreamCategoriesHandler implements IQueryHandler<ListStreamCategoriesQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute() {
    return this.history.categories();
  }
}
