import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getEnvironmentRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { GetEnvironmentQuery } from './get-environment.query';

@Controller()
export class GetEnvironmentController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getEnvironmentRoute)
  get(@Input() { params }: RouteInput<typeof getEnvironmentRoute>) {
    return this.queries.execute(new GetEnvironmentQuery(params.environment_slug));
  }
}
