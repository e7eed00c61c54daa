import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { changeItemSchema, itemSchemaTarget } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { commandMetadata } from '../../shared/command-metadata';
import { presentItemSchema } from '../present-item-schema';
import { UpsertSchemaCommand } from './upsert-schema.command';

@CommandHandler(UpsertSchemaCommand)
export class UpsertSchemaHandler implements ICommandHandler<UpsertSchemaCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly schemas: ItemSchemaQueries,
  ) {}

  async execute({ ctx, itemType, collection, request }: UpsertSchemaCommand) {
    const target = itemSchemaTarget(itemType, collection);
    const outcome = await changeItemSchema(this.store, ctx.environment, target, request, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const saved = await this.schemas.get(ctx.environment, target.itemType, target.itemId);
    return presentItemSchema(target.itemType, target.itemId, saved?.properties ?? outcome.state.properties);
  }
}
