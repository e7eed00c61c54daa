import { Query } from '@nestjs/cqrs';
import { listUsersRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListUsersQuery extends Query<RouteOutput<typeof listUsersRoute>> {
  constructor(
    readonly environment: string,
    readonly page: RouteInput<typeof listUsersRoute>['query'],
  ) {
    super();
  }
}
