import { Command } from '@nestjs/cqrs';
import { RecipientReferenceT, SubscriptionT } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { BatchResult } from '../add-subscriptions/add-subscriptions.command';

export class DeleteSubscriptionsCommand extends Command<BatchResult<SubscriptionT[]>> {
  constructor(
    readonly ctx: RequestContext,
    readonly collection: string,
    readonly objectId: string,
    readonly recipients: RecipientReferenceT[],
  ) {
    super();
  }
}
