import { Query } from '@nestjs/cqrs';
import { userHistoryRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class UserHistoryQuery extends Query<RouteOutput<typeof userHistoryRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof userHistoryRoute>, 'params' | 'query'>) {
    super();
  }
}
