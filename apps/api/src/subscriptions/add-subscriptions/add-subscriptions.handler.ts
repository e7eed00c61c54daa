import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { addSubscriptions, RecipientDeps } from '@notify/application';
import { SubscriptionT } from '@notify/contracts';
import { BatchDeduplicator } from '@notify/http';
import { ReadYourWrites } from '@notify/platform';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { commandMetadata } from '../../shared/command-metadata';
import { settleAll } from '../../shared/settle';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { recipientLabelOf } from '../recipient-key';
import { AddSubscriptionsCommand, BatchResult } from './add-subscriptions.command';

@CommandHandler(AddSubscriptionsCommand)
export class AddSubscriptionsHandler implements ICommandHandler<AddSubscriptionsCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
    private readonly subscriptions: SubscriptionQueries,
    private readonly dedup: BatchDeduplicator,
  ) {}

  async execute({ ctx, collection, objectId, recipients, properties }: AddSubscriptionsCommand): Promise<BatchResult<SubscriptionT[]>> {
    const labels = recipients.map(recipientLabelOf);
    const { accepted, dropped } = await this.dedup.claim(ctx.environment, `subscription:${collection}:${objectId}`, labels);
    const kept = accepted.map((i) => recipients[i]);
    if (kept.length === 0) return { body: [], ratelimited: dropped };
    const result = await addSubscriptions(this.deps, ctx.environment, collection, objectId, kept, properties, commandMetadata(ctx));
    await settleAll(this.consistency, result.outcomes);
    return { body: await this.subscriptions.find(ctx.environment, collection, objectId, result.recipients), ratelimited: dropped };
  }
}
