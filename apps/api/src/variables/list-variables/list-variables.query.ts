import { Query } from '@nestjs/cqrs';
import { listVariablesRoute, RouteInput } from '@notify/contracts';

export class ListVariablesQuery extends Query<{
  entries: Record<string, unknown>[];
  page_info: { after: string | null; before: string | null; page_size: number };
}> {
  constructor(
    readonly environment: string,
    readonly query: RouteInput<typeof listVariablesRoute>['query'],
  ) {
    super();
  }
}
