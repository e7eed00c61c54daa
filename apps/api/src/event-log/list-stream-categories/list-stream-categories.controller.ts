import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listStreamCategoriesRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ListStreamCategoriesQuery } from './list-stream-categories.query';

@Controller()
export class ListStreamCategoriesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listStreamCategoriesRoute)
  handle(@Input() input: RouteInput<typeof listStreamCategoriesRoute>) {
    return this.queries.execute(new ListStreamCategoriesQuery(input));
  }
}
