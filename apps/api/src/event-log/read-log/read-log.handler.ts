import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory, logRequest } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { ReadLogQuery } from './read-log.query';

@QueryHandler(ReadLogQuery)
export class ReadLogHandler implements IQueryHandler<ReadLogQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute({ input }: ReadLogQuery) {
    return this.history.readLog(logRequest(input.query));
  }
}
