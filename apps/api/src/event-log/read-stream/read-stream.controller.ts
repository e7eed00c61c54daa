import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { readStreamRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ReadStreamQuery } from './read-stream.query';

@Controller()
export class ReadStreamController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(readStreamRoute)
  handle(@Input() input: RouteInput<typeof readStreamRoute>) {
    return this.queries.execute(new ReadStreamQuery(input));
  }
}
