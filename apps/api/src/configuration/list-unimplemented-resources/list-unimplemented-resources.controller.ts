import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listGuidesRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ListUnimplementedResourcesQuery } from './list-unimplemented-resources.query';

@Controller()
export class ListUnimplementedResourcesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listGuidesRoute)
  guides(@Input() { query }: RouteInput<typeof listGuidesRoute>) {
    return this.queries.execute(new ListUnimplementedResourcesQuery(query.limit));
  }
}
