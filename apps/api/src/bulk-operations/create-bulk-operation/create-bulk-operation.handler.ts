import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createBulkOperation } from '@notify/application';
import { BulkOperationT } from '@notify/contracts';
import { EventStore } from '@notify/eventstore';
import { BatchDeduplicator } from '@notify/http';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { BulkOperationQueries } from '@notify/projections/bulk-operations';
import { Inject } from '@nestjs/common';
import { commandMetadata } from '../../shared/command-metadata';
import { CreateBulkOperationCommand } from './create-bulk-operation.command';

/**
 * Records the operation with its items and answers at once; the worker does the work. Items
 * over the batch deduplication limit are left out and named back to the caller.
 */
@CommandHandler(CreateBulkOperationCommand)
export class CreateBulkOperationHandler implements ICommandHandler<CreateBulkOperationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly operations: BulkOperationQueries,
    private readonly dedup: BatchDeduplicator,
  ) {}

  async execute({ ctx, request }: CreateBulkOperationCommand): Promise<{ operation: BulkOperationT; ratelimited: string[] }> {
    const scope = request.collection ? `${request.kind.split('.')[0]}:${request.collection}` : request.kind.split('.')[0];
    const { accepted, dropped } = await this.dedup.claim(ctx.environment, scope, request.entityIds);
    const items = accepted.map((i) => request.items[i]);
    const { operation, outcome } = await createBulkOperation(
      { store: this.store },
      ctx.environment,
      { kind: request.kind, collection: request.collection, items },
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    return { operation: (await this.operations.get(ctx.environment, operation.id)) ?? operation, ratelimited: dropped };
  }
}
