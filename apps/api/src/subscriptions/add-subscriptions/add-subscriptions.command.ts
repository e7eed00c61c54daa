import { Command } from '@nestjs/cqrs';
import { RecipientRequestT, SubscriptionT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export interface BatchResult<T> {
  body: T;
  /** Ids the batch deduplication limit dropped. */
  ratelimited: string[];
}

export class AddSubscriptionsCommand extends Command<BatchResult<SubscriptionT[]>> {
  constructor(
    readonly ctx: RequestContext,
    readonly collection: string,
    readonly objectId: string,
    readonly recipients: RecipientRequestT[],
    readonly properties: Record<string, unknown> | null | undefined,
  ) {
    super();
  }
}
