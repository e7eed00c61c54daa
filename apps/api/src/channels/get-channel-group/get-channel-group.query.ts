import { Query } from '@nestjs/cqrs';
import { ChannelGroupT } from '@notify/contracts';

export class GetChannelGroupQuery extends Query<ChannelGroupT> {
  constructor(readonly key: string) {
    super();
  }
}
