import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { VerifyLogQuery } from './verify-log.query';

@QueryHandler(VerifyLogQuery)
export class VerifyLogHandler implements IQueryHandler<VerifyLogQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute({ input }: VerifyLogQuery) {
    return this.history.verify({ checkpoint: input.query.checkpoint });
  }
}
