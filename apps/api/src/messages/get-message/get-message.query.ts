import { Query } from '@nestjs/cqrs';
import { MessageContentsT, MessageT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class GetMessageQuery extends Query<MessageT> {
  constructor(
    readonly ctx: RequestContext,
    readonly messageId: string,
  ) {
    super();
  }
}

/** The rendered content of one message (`many` false) or of several. */
export class GetMessageContentsQuery extends Query<MessageContentsT[]> {
  constructor(
    readonly ctx: RequestContext,
    readonly messageIds: string[],
    readonly many: boolean,
  ) {
    super();
  }
}
