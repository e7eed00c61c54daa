import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listEnvironmentsRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ListEnvironmentsQuery } from './list-environments.query';

@Controller()
export class ListEnvironmentsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listEnvironmentsRoute)
  list(@Input() { query }: RouteInput<typeof listEnvironmentsRoute>) {
    return this.queries.execute(new ListEnvironmentsQuery(query));
  }
}
