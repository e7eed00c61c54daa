import { Query } from '@nestjs/cqrs';
import { listChannelGroupsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListChannelGroupsQuery extends Query<RouteOutput<typeof listChannelGroupsRoute>> {
  constructor(readonly page: RouteInput<typeof listChannelGroupsRoute>['query']) {
    super();
  }
}
