import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { logHeadRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { LogHeadQuery } from './log-head.query';

@Controller()
export class LogHeadController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(logHeadRoute)
  handle(@Input() input: RouteInput<typeof logHeadRoute>) {
    return this.queries.execute(new LogHeadQuery(input));
  }
}
