import { Query } from '@nestjs/cqrs';
import { listObjectsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListObjectsQuery extends Query<RouteOutput<typeof listObjectsRoute>> {
  constructor(
    readonly environment: string,
    readonly collection: string,
    readonly page: RouteInput<typeof listObjectsRoute>['query'],
  ) {
    super();
  }
}
