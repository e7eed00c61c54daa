import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { userAsOfRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { UserAsOfQuery } from './user-as-of.query';

@Controller()
export class UserAsOfController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(userAsOfRoute)
  handle(@Input() input: RouteInput<typeof userAsOfRoute>) {
    return this.queries.execute(new UserAsOfQuery(input));
  }
}
