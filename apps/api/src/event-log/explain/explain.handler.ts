import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { ExplainQuery } from './explain.query';

@QueryHandler(ExplainQuery)
export class ExplainHandler implements IQueryHandler<ExplainQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute({ environment, subject }: ExplainQuery) {
    return 'runId' in subject
      ? this.history.explainRun(environment, subject.runId)
      : this.history.explainMessage(environment, subject.messageId);
  }
}
