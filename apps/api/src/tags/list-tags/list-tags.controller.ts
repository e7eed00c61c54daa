import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listTagsRoute } from '@notify/contracts';
import { Endpoint } from '@notify/http';
import { ListTagsQuery } from './list-tags.query';

@Controller()
export class ListTagsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listTagsRoute)
  list() {
    return this.queries.execute(new ListTagsQuery());
  }
}
