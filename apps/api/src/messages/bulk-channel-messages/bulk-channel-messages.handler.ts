import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createBulkOperation } from '@notify/application';
import { BULK_MAX_RECORDED_ITEMS, BulkOperationKindT, BulkOperationT } from '@notify/contracts';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { BulkOperationQueries } from '@notify/projections/bulk-operations';
import { MessageFilter } from '@notify/projections/messages';
import { commandMetadata } from '../../shared/command-metadata';
import { MessageAccess } from '../message-access';
import { BulkChannelMessagesCommand } from './bulk-channel-messages.command';

const ALIASES: Record<string, string> = { archive: 'archived', unarchive: 'unarchived' };

/**
 * Resolves the filters to the matching messages now (the operation records their ids, so a
 * restart works through the same set however the engagement changes meanwhile; ADR 0072) and
 * leaves the work to the bulk operation runner in the worker.
 */
@CommandHandler(BulkChannelMessagesCommand)
export class BulkChannelMessagesHandler implements ICommandHandler<BulkChannelMessagesCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly access: MessageAccess,
    private readonly operations: BulkOperationQueries,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, channelId, action, filter: f }: BulkChannelMessagesCommand): Promise<BulkOperationT> {
    const named = f.recipient_ids || f.user_ids ? [...(f.recipient_ids ?? []), ...(f.user_ids ?? [])] : undefined;
    const filter: MessageFilter = {
      channelId,
      userIds: ctx.userId !== undefined ? [ctx.userId] : named,
      tenants: f.tenants,
      hasTenant: f.has_tenant,
      status: f.delivery_status ? [f.delivery_status] : undefined,
      engagement: f.engagement_status ? [f.engagement_status] : undefined,
      insertedAt: { gt: f.newer_than, lt: f.older_than },
      triggerData: f.trigger_data,
      sources: f.workflows,
      archived: f.archived ?? 'include',
      retentionDays: this.access.retentionDays,
    };
    const ids = await this.access.messages.matchingIds(ctx.environment, filter, BULK_MAX_RECORDED_ITEMS);
    const kind = `messages.${ALIASES[action] ?? action}` as BulkOperationKindT;
    const { operation, outcome } = await createBulkOperation(
      { store: this.store },
      ctx.environment,
      { kind, collection: null, items: ids },
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    return (await this.operations.get(ctx.environment, operation.id)) ?? operation;
  }
}
