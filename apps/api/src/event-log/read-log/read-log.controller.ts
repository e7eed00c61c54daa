import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { readLogRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ReadLogQuery } from './read-log.query';

@Controller()
export class ReadLogController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(readLogRoute)
  handle(@Input() input: RouteInput<typeof readLogRoute>) {
    return this.queries.execute(new ReadLogQuery(input));
  }
}
