import { Query } from '@nestjs/cqrs';
import { listUserSubscriptionsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListUserSubscriptionsQuery extends Query<RouteOutput<typeof listUserSubscriptionsRoute>> {
  constructor(
    readonly environment: string,
    readonly userId: string,
    readonly options: RouteInput<typeof listUserSubscriptionsRoute>['query'],
  ) {
    super();
  }
}
