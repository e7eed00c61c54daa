import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { identifyUser, RecipientDeps } from '@notify/application';
import { UserT } from '@notify/contracts';
import { ReadYourWrites } from '@notify/platform';
import { toUser, UserQueries } from '@notify/projections/users';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { IdentifyUserCommand } from './identify-user.command';

@CommandHandler(IdentifyUserCommand)
export class IdentifyUserHandler implements ICommandHandler<IdentifyUserCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
    private readonly users: UserQueries,
  ) {}

  async execute({ ctx, userId, body }: IdentifyUserCommand): Promise<UserT> {
    // Inline channel data and preferences are recorded with the identify, in the same append.
    const outcome = await identifyUser(this.deps, ctx.environment, userId, body, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const now = new Date();
    return (
      (await this.users.get(ctx.environment, userId)) ??
      toUser({ id: userId, properties: outcome.state.properties, inserted_at: now, updated_at: now })
    );
  }
}
