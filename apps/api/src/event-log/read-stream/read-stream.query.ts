import { Query } from '@nestjs/cqrs';
import { readStreamRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ReadStreamQuery extends Query<RouteOutput<typeof readStreamRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof readStreamRoute>, 'params' | 'query'>) {
    super();
  }
}
