import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecipientDeps } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { updateRecipientAspects } from '../../recipients/recipient-aspects';
import { DeletePreferenceSetCommand } from './delete-preference-set.command';

@CommandHandler(DeletePreferenceSetCommand)
export class DeletePreferenceSetHandler implements ICommandHandler<DeletePreferenceSetCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, recipient, preferenceSetId }: DeletePreferenceSetCommand): Promise<void> {
    const outcome = await updateRecipientAspects(
      this.deps,
      ctx.environment,
      recipient,
      [{ type: 'DeletePreferenceSet', preferenceSetId, now: new Date().toISOString() }],
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
