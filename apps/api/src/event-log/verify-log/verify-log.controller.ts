import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { verifyLogRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { VerifyLogQuery } from './verify-log.query';

@Controller()
export class VerifyLogController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(verifyLogRoute)
  handle(@Input() input: RouteInput<typeof verifyLogRoute>) {
    return this.queries.execute(new VerifyLogQuery(input));
  }
}
