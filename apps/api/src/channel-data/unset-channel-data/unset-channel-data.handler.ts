import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecipientDeps } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { updateRecipientAspects } from '../../recipients/recipient-aspects';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { UnsetChannelDataCommand } from './unset-channel-data.command';

@CommandHandler(UnsetChannelDataCommand)
export class UnsetChannelDataHandler implements ICommandHandler<UnsetChannelDataCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, recipient, channelId }: UnsetChannelDataCommand): Promise<void> {
    const outcome = await updateRecipientAspects(
      this.deps,
      ctx.environment,
      recipient,
      [{ type: 'UnsetChannelData', channelId, now: new Date().toISOString() }],
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
