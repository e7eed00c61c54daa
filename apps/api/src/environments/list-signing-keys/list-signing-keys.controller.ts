import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listSigningKeysRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ListSigningKeysQuery } from './list-signing-keys.query';

@Controller()
export class ListSigningKeysController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listSigningKeysRoute)
  list(@Input() { params }: RouteInput<typeof listSigningKeysRoute>) {
    return this.queries.execute(new ListSigningKeysQuery(params.environment_slug));
  }
}
