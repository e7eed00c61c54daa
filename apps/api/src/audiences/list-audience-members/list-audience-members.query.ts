import { Query } from '@nestjs/cqrs';
import { listAudienceMembersRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListAudienceMembersQuery extends Query<RouteOutput<typeof listAudienceMembersRoute>> {
  constructor(
    readonly environment: string,
    readonly audienceKey: string,
    readonly page: RouteInput<typeof listAudienceMembersRoute>['query'],
  ) {
    super();
  }
}
