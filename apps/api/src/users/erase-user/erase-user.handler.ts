import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { eraseUserAndKey, ERASURE_KEYS, ErasureKeyStore, RecipientDeps } from '@notify/application';
import { UserErasureT } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { EraseUserCommand } from './erase-user.command';

/**
 * The management call of `DELETE /v1/users/{id}` (service token, the environment in the query),
 * with the reason recorded on `UserErased`, as `notify recipients erase` records it.
 */
@CommandHandler(EraseUserCommand)
export class EraseUserHandler implements ICommandHandler<EraseUserCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
    @Inject(ERASURE_KEYS) private readonly keys: ErasureKeyStore,
  ) {}

  async execute({ ctx, userId, reason }: EraseUserCommand): Promise<UserErasureT> {
    // Crypto-shredding (ADR 0180): the user's personal fields in the log read as erased from now on.
    const outcome = await eraseUserAndKey(this.deps, this.keys, ctx.environment, userId, reason, commandMetadata(ctx));
    const erased = outcome.events.find((e) => e.type === 'UserErased');
    // Never identified, or erased with nothing recorded since: nothing to erase.
    if (!erased || !outcome.append)
      throw new DomainError(
        'resource_missing',
        `No user ${userId} with personal data to erase in ${ctx.environment} (never identified, or erased with nothing recorded since)`,
        'not_found',
      );
    await this.consistency.settle(outcome.append, outcome.events);
    return {
      user_id: userId,
      environment: ctx.environment,
      reason,
      erased_at: erased.data.erased_at,
      deleted: outcome.events.some((e) => e.type === 'UserDeleted'),
      events: outcome.events.map((e) => e.type),
      position: outcome.append.position,
      global_position: outcome.append.globalPosition.toString(),
    };
  }
}
