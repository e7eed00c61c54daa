import { Query } from '@nestjs/cqrs';
import { listEventTypesRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListEventTypesQuery extends Query<RouteOutput<typeof listEventTypesRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof listEventTypesRoute>, 'query'>) {
    super();
  }
}
