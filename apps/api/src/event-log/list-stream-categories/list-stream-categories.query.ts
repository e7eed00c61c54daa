import { Query } from '@nestjs/cqrs';
import { listStreamCategoriesRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ListStreamCategoriesQuery extends Query<RouteOutput<typeof listStreamCategoriesRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof listStreamCategoriesRoute>, 'query'>) {
    super();
  }
}
