import { Query } from '@nestjs/cqrs';
import { verifyLogRoute, RouteInput, RouteOutput } from '@notify/contracts';

export class VerifyLogQuery extends Query<RouteOutput<typeof verifyLogRoute>> {
  constructor(readonly input: Pick<RouteInput<typeof verifyLogRoute>, 'query'>) {
    super();
  }
}
