import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getChannelGroupRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { GetChannelGroupQuery } from './get-channel-group.query';

@Controller()
export class GetChannelGroupController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getChannelGroupRoute)
  get(@Input() { params }: RouteInput<typeof getChannelGroupRoute>) {
    return this.queries.execute(new GetChannelGroupQuery(params.channel_group_key));
  }
}
