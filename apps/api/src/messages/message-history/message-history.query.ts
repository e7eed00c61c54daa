import { Query } from '@nestjs/cqrs';
import { PageInfoT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export type MessageHistoryKind = 'events' | 'delivery_logs' | 'activities';

/** One of a message's histories, newest first. */
export class ListMessageHistoryQuery extends Query<{ items: unknown[]; page_info: PageInfoT }> {
  constructor(
    readonly ctx: RequestContext,
    readonly messageId: string,
    readonly kind: MessageHistoryKind,
    readonly page: { after?: string; before?: string; page_size: number },
    readonly triggerData?: Record<string, unknown>,
  ) {
    super();
  }
}
