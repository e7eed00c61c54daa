import { Query } from '@nestjs/cqrs';
import { UserT } from '@notify/contracts';

export class GetUserQuery extends Query<UserT> {
  constructor(
    readonly environment: string,
    readonly userId: string,
  ) {
    super();
  }
}
