import { Command } from '@nestjs/cqrs';
import { MessageEngagementActionT, MessageT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

/** One message (`batch` false: 404 when it is not there) or up to 50 (batch: the dedup limit applies). */
export class EngageMessagesCommand extends Command<{ messages: MessageT[]; ratelimited: string[] }> {
  constructor(
    readonly ctx: RequestContext,
    readonly messageIds: string[],
    readonly action: MessageEngagementActionT,
    readonly batch: boolean,
    readonly metadata?: Record<string, unknown> | null,
  ) {
    super();
  }
}
