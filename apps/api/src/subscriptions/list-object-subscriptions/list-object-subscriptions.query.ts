import { Query } from '@nestjs/cqrs';
import { listObjectSubscriptionsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListObjectSubscriptionsQuery extends Query<RouteOutput<typeof listObjectSubscriptionsRoute>> {
  constructor(
    readonly environment: string,
    readonly collection: string,
    readonly objectId: string,
    readonly options: RouteInput<typeof listObjectSubscriptionsRoute>['query'],
  ) {
    super();
  }
}
