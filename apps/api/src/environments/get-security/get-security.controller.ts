import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getEnvironmentSecurityRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { GetSecurityQuery } from './get-security.query';

@Controller()
export class GetSecurityController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getEnvironmentSecurityRoute)
  get(@Input() { params }: RouteInput<typeof getEnvironmentSecurityRoute>) {
    return this.queries.execute(new GetSecurityQuery(params.environment_slug));
  }
}
