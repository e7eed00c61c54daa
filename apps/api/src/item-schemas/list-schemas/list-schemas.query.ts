import { Query } from '@nestjs/cqrs';
import { listSchemasRoute, RouteOutput } from '@notify/contracts';

export class ListSchemasQuery extends Query<RouteOutput<typeof listSchemasRoute>> {
  constructor(
    readonly environment: string,
    readonly itemType: 'user' | 'tenant' | 'object' | undefined,
  ) {
    super();
  }
}
