import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { LogHeadQuery } from './log-head.query';

@QueryHandler(LogHeadQuery)
export class LogHeadHandler implements IQueryHandler<LogHeadQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute() {
    return this.history.head();
  }
}
