import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecipientDeps, removeSubscriptions } from '@notify/application';
import { SubscriptionT, toRecipientRef } from '@notify/contracts';
import { BatchDeduplicator } from '@notify/http';
import { ReadYourWrites } from '@notify/platform';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { BatchResult } from '../add-subscriptions/add-subscriptions.command';
import { recipientLabelOf } from '../recipient-key';
import { DeleteSubscriptionsCommand } from './delete-subscriptions.command';

@CommandHandler(DeleteSubscriptionsCommand)
export class DeleteSubscriptionsHandler implements ICommandHandler<DeleteSubscriptionsCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
    private readonly subscriptions: SubscriptionQueries,
    private readonly dedup: BatchDeduplicator,
  ) {}

  async execute({ ctx, collection, objectId, recipients }: DeleteSubscriptionsCommand): Promise<BatchResult<SubscriptionT[]>> {
    const { accepted, dropped } = await this.dedup.claim(
      ctx.environment,
      `subscription:${collection}:${objectId}`,
      recipients.map(recipientLabelOf),
    );
    const refs = accepted.map((i) => toRecipientRef(recipients[i]));
    // Answer with the subscriptions as they were before their removal.
    const removed = await this.subscriptions.find(ctx.environment, collection, objectId, refs);
    const outcome = await removeSubscriptions(this.deps, ctx.environment, collection, objectId, refs, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    return { body: removed, ratelimited: dropped };
  }
}
