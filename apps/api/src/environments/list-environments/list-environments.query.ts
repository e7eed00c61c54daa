import { Query } from '@nestjs/cqrs';
import { listEnvironmentsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListEnvironmentsQuery extends Query<RouteOutput<typeof listEnvironmentsRoute>> {
  constructor(readonly page: RouteInput<typeof listEnvironmentsRoute>['query']) {
    super();
  }
}
