import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { objectHistoryRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ObjectHistoryQuery } from './object-history.query';

@Controller()
export class ObjectHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(objectHistoryRoute)
  handle(@Input() input: RouteInput<typeof objectHistoryRoute>) {
    return this.queries.execute(new ObjectHistoryQuery(input));
  }
}
