import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listChannelsRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ListChannelsQuery } from './list-channels.query';

@Controller()
export class ListChannelsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listChannelsRoute)
  list(@Input() { query }: RouteInput<typeof listChannelsRoute>) {
    return this.queries.execute(new ListChannelsQuery(query));
  }
}
