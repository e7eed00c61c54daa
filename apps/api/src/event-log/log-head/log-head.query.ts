import { Query } from '@nestjs/cqrs';
import { logHeadRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class LogHeadQuery extends Query<RouteOutput<typeof logHeadRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof logHeadRoute>, 'query'>) {
    super();
  }
}
