import { Query } from '@nestjs/cqrs';
import { FeedQueryT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

/** Answers the JSON text of a FeedResponse (less the `exclude`d fields). */
export class GetFeedQuery extends Query<string> {
  constructor(
    readonly ctx: RequestContext,
    readonly userId: string,
    readonly channelId: string,
    readonly query: FeedQueryT,
  ) {
    super();
  }
}
