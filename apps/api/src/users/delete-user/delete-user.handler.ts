import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@notify/application';
import { userDecider, userStream } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { DeleteUserCommand } from './delete-user.command';

@CommandHandler(DeleteUserCommand)
export class DeleteUserHandler implements ICommandHandler<DeleteUserCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, userId }: DeleteUserCommand): Promise<void> {
    const outcome = await handleCommand(this.store, userStream(ctx.environment, userId), userDecider, { type: 'DeleteUser', userId, now: new Date().toISOString() }, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
