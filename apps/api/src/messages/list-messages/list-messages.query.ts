import { Query } from '@nestjs/cqrs';
import { ListMessagesQueryT, MessageT, PageInfoT, RecipientRefT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class ListMessagesQuery extends Query<{ items: MessageT[]; page_info: PageInfoT }> {
  constructor(
    readonly ctx: RequestContext,
    /** Null: every recipient's messages. */
    readonly recipient: RecipientRefT | null,
    readonly filter: ListMessagesQueryT,
  ) {
    super();
  }
}
