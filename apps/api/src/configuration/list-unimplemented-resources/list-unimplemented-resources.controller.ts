import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listAudiencesRoute, listGuidesRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ListUnimplementedResourcesQuery } from './list-unimplemented-resources.query';

@Controller()
export class ListUnimplementedResourcesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listAudiencesRoute)
  audiences(@Input() { query }: RouteInput<typeof listAudiencesRoute>) {
    return this.queries.execute(new ListUnimplementedResourcesQuery(query.limit));
  }

  @Endpoint(listGuidesRoute)
  guides(@Input() { query }: RouteInput<typeof listGuidesRoute>) {
    return this.queries.execute(new ListUnimplementedResourcesQuery(query.limit));
  }
}
