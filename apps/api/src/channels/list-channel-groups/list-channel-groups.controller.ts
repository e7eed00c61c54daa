import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listChannelGroupsRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ListChannelGroupsQuery } from './list-channel-groups.query';

@Controller()
export class ListChannelGroupsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listChannelGroupsRoute)
  list(@Input() { query }: RouteInput<typeof listChannelGroupsRoute>) {
    return this.queries.execute(new ListChannelGroupsQuery(query));
  }
}
