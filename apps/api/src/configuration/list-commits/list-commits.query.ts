import { Query } from '@nestjs/cqrs';
import { listCommitsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListCommitsQuery extends Query<RouteOutput<typeof listCommitsRoute>> {
  constructor(
    readonly environment: string,
    readonly query: RouteInput<typeof listCommitsRoute>['query'],
  ) {
    super();
  }
}
