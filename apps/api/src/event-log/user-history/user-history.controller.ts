import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { userHistoryRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { UserHistoryQuery } from './user-history.query';

@Controller()
export class UserHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(userHistoryRoute)
  handle(@Input() input: RouteInput<typeof userHistoryRoute>) {
    return this.queries.execute(new UserHistoryQuery(input));
  }
}
