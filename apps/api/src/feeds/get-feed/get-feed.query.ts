import { Query } from '@nestjs/cqrs';
import { FeedQueryT, FeedResponseT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class GetFeedQuery extends Query<Partial<FeedResponseT>> {
  constructor(
    readonly ctx: RequestContext,
    readonly userId: string,
    readonly channelId: string,
    readonly query: FeedQueryT,
  ) {
    super();
  }
}
