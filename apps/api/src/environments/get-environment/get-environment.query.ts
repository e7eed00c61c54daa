import { Query } from '@nestjs/cqrs';
import { EnvironmentT } from '@notify/contracts';

export class GetEnvironmentQuery extends Query<EnvironmentT> {
  constructor(readonly slug: string) {
    super();
  }
}
