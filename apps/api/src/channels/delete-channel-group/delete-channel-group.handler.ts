import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { archiveChannelGroup } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { DeleteChannelGroupCommand } from './delete-channel-group.command';

@CommandHandler(DeleteChannelGroupCommand)
export class DeleteChannelGroupHandler implements ICommandHandler<DeleteChannelGroupCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, key }: DeleteChannelGroupCommand): Promise<void> {
    const outcome = await archiveChannelGroup(this.store, key, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
