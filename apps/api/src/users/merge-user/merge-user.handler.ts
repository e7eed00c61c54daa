import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { mergeUser, RecipientDeps } from '@notify/application';
import { UserT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { ReadYourWrites } from '@notify/platform';
import { UserQueries } from '@notify/projections/users';
import { commandMetadata } from '../../shared/command-metadata';
import { settleAll } from '../../shared/settle';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { MergeUserCommand } from './merge-user.command';

@CommandHandler(MergeUserCommand)
export class MergeUserHandler implements ICommandHandler<MergeUserCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
    private readonly users: UserQueries,
  ) {}

  async execute({ ctx, userId, fromUserId }: MergeUserCommand): Promise<UserT> {
    await settleAll(this.consistency, await mergeUser(this.deps, ctx.environment, userId, fromUserId, commandMetadata(ctx)));
    const user = await this.users.get(ctx.environment, userId);
    if (!user) throw resourceMissing('user');
    return user;
  }
}
