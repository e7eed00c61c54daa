import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { deleteTag } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { DeleteTagCommand } from './delete-tag.command';

@CommandHandler(DeleteTagCommand)
export class DeleteTagHandler implements ICommandHandler<DeleteTagCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, name }: DeleteTagCommand): Promise<void> {
    const outcome = await deleteTag(this.store, name, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
