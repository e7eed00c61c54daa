import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventHistory } from '@notify/application';
import { EVENT_HISTORY } from '../event-history.provider';
import { ReadStreamQuery } from './read-stream.query';

@QueryHandler(ReadStreamQuery)
export class ReadStreamHandler implements IQueryHandler<ReadStreamQuery> {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  async execute({ input }: ReadStreamQuery) {
    return this.history.readStream(input.params.stream_id, input.query);
  }
}
