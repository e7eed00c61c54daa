import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@notify/application';
import { channelGroupDecider, channelGroupStream } from '@notify/domain';
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
    const outcome = await handleCommand(this.store, channelGroupStream(key), channelGroupDecider, { type: 'ArchiveChannelGroup', key, now: new Date().toISOString() }, { ...commandMetadata(ctx), environment: null });
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
