import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getCommitRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { GetCommitQuery } from './get-commit.query';

@Controller()
export class GetCommitController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getCommitRoute)
  get(@Input() { params }: RouteInput<typeof getCommitRoute>) {
    return this.queries.execute(new GetCommitQuery(params.id));
  }
}
