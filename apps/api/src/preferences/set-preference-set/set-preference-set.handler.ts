import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecipientDeps } from '@notify/application';
import { PreferenceSetT } from '@notify/contracts';
import { emptyPreferenceSet } from '@notify/domain';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { updateRecipientAspects } from '../../recipients/recipient-aspects';
import { SetPreferenceSetCommand } from './set-preference-set.command';

@CommandHandler(SetPreferenceSetCommand)
export class SetPreferenceSetHandler implements ICommandHandler<SetPreferenceSetCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, recipient, preferenceSetId, request }: SetPreferenceSetCommand): Promise<PreferenceSetT> {
    // Replace unless the request asks to merge; a set on an absent recipient creates it.
    const outcome = await updateRecipientAspects(
      this.deps,
      ctx.environment,
      recipient,
      [{ type: 'SetPreferenceSet', preferenceSetId, request, strategy: 'replace', now: new Date().toISOString() }],
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    return { id: preferenceSetId, ...(outcome.state.aspects.preferences[preferenceSetId] ?? emptyPreferenceSet()) };
  }
}
