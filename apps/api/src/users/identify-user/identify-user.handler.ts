import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@notify/application';
import { UserT } from '@notify/contracts';
import { userDecider, userStream } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { toUser, UserQueries } from '@notify/projections/users';
import { commandMetadata } from '../../shared/command-metadata';
import { IdentifyUserCommand } from './identify-user.command';

@CommandHandler(IdentifyUserCommand)
export class IdentifyUserHandler implements ICommandHandler<IdentifyUserCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly users: UserQueries,
  ) {}

  async execute({ ctx, userId, body }: IdentifyUserCommand): Promise<UserT> {
    // channel_data and preferences are applied by their own aggregates, not stored as properties.
    const { channel_data: _channelData, preferences: _preferences, ...properties } = body;
    const now = new Date().toISOString();
    const outcome = await handleCommand(this.store, userStream(ctx.environment, userId), userDecider, { type: 'IdentifyUser', userId, properties, now }, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    return (
      (await this.users.get(ctx.environment, userId)) ??
      toUser({ id: userId, properties: outcome.state.properties, inserted_at: new Date(now), updated_at: new Date(now) })
    );
  }
}
