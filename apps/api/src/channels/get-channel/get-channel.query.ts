import { Query } from '@nestjs/cqrs';
import { ChannelT } from '@notify/contracts';

export class GetChannelQuery extends Query<ChannelT> {
  constructor(readonly key: string) {
    super();
  }
}
