import { Query } from '@nestjs/cqrs';
import { listTenantsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListTenantsQuery extends Query<RouteOutput<typeof listTenantsRoute>> {
  constructor(
    readonly environment: string,
    readonly filter: RouteInput<typeof listTenantsRoute>['query'],
  ) {
    super();
  }
}
