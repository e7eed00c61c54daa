import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { upsertTag } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { TagQueries } from '@notify/projections/tags';
import { commandMetadata } from '../../shared/command-metadata';
import { presentTag } from '../present-tag';
import { UpsertTagCommand } from './upsert-tag.command';

@CommandHandler(UpsertTagCommand)
export class UpsertTagHandler implements ICommandHandler<UpsertTagCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly tags: TagQueries,
  ) {}

  async execute({ ctx, name, tag }: UpsertTagCommand) {
    const outcome = await upsertTag(this.store, name, tag, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const saved = await this.tags.get(name);
    if (!saved) throw new Error(`Tag ${name} was written but is not in the read model`);
    return { tag: presentTag(saved) };
  }
}
