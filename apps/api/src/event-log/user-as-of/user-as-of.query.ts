import { Query } from '@nestjs/cqrs';
import { userAsOfRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class UserAsOfQuery extends Query<RouteOutput<typeof userAsOfRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof userAsOfRoute>, 'params' | 'query'>) {
    super();
  }
}
