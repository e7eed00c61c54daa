import { Query } from '@nestjs/cqrs';
import { listWorkflowRecipientRunsRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListWorkflowRecipientRunsQuery extends Query<RouteOutput<typeof listWorkflowRecipientRunsRoute>> {
  constructor(
    readonly environment: string,
    readonly filter: RouteInput<typeof listWorkflowRecipientRunsRoute>['query'],
  ) {
    super();
  }
}
