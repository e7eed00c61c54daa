import { Query } from '@nestjs/cqrs';
import { objectHistoryRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class ObjectHistoryQuery extends Query<RouteOutput<typeof objectHistoryRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof objectHistoryRoute>, 'params' | 'query'>) {
    super();
  }
}
