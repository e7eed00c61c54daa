import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecipientDeps, resolveChannel } from '@notify/application';
import { ChannelDataT } from '@notify/contracts';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { updateRecipientAspects } from '../../recipients/recipient-aspects';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { toChannelData } from '../channel-data.response';
import { SetChannelDataCommand } from './set-channel-data.command';

@CommandHandler(SetChannelDataCommand)
export class SetChannelDataHandler implements ICommandHandler<SetChannelDataCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, recipient, channelId, data }: SetChannelDataCommand): Promise<ChannelDataT> {
    // channel_invalid when the channel is not in this environment; the shape must fit its provider.
    const channel = await resolveChannel(this.deps.channels, ctx.environment, channelId, data, { channel: 'channel_id', data: 'data' });
    const outcome = await updateRecipientAspects(
      this.deps,
      ctx.environment,
      recipient,
      [{ type: 'SetChannelData', channel, data, now: new Date().toISOString() }],
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    return toChannelData(channel.id, channel.provider, data);
  }
}
