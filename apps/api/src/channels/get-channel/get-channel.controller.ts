import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getChannelRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { GetChannelQuery } from './get-channel.query';

@Controller()
export class GetChannelController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getChannelRoute)
  get(@Input() { params }: RouteInput<typeof getChannelRoute>) {
    return this.queries.execute(new GetChannelQuery(params.channel_key));
  }
}
