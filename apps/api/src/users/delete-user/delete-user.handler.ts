import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { eraseUserAndKey, ERASURE_KEYS, ErasureKeyStore, RecipientDeps } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { DeleteUserCommand } from './delete-user.command';

@CommandHandler(DeleteUserCommand)
export class DeleteUserHandler implements ICommandHandler<DeleteUserCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
    @Inject(ERASURE_KEYS) private readonly keys: ErasureKeyStore,
  ) {}

  async execute({ ctx, userId }: DeleteUserCommand): Promise<void> {
    // Deleting a user erases their personal data (ADR 0144): UserDeleted, then UserErased, and the
    // user's key destroyed (ADR 0180).
    const outcome = await eraseUserAndKey(this.deps, this.keys, ctx.environment, userId, null, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
