import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listEventTypesRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ListEventTypesQuery } from './list-event-types.query';

@Controller()
export class ListEventTypesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listEventTypesRoute)
  handle(@Input() input: RouteInput<typeof listEventTypesRoute>) {
    return this.queries.execute(new ListEventTypesQuery(input));
  }
}
