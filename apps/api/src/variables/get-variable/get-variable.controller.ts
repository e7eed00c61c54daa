import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getVariableRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { GetVariableQuery } from './get-variable.query';

@Controller()
export class GetVariableController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getVariableRoute)
  get(@Input() { params }: RouteInput<typeof getVariableRoute>) {
    return this.queries.execute(new GetVariableQuery(params.key));
  }
}
