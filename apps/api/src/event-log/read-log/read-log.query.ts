import { Query } from '@nestjs/cqrs';
import { readLogRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ReadLogQuery extends Query<RouteOutput<typeof readLogRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof readLogRoute>, 'query'>) {
    super();
  }
}
