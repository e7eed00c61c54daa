import { Query } from '@nestjs/cqrs';
import { listChannelsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListChannelsQuery extends Query<RouteOutput<typeof listChannelsRoute>> {
  constructor(readonly query: RouteInput<typeof listChannelsRoute>['query']) {
    super();
  }
}
