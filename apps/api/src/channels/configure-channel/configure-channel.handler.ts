import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountSettingsDeps, configureChannel } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { ACCOUNT_SETTINGS_DEPS } from '../../shared/account-settings-deps';
import { commandMetadata } from '../../shared/command-metadata';
import { presentChannel } from '../present-channel';
import { ConfigureChannelCommand } from './configure-channel.command';

/** Configures a channel (see configureChannel) and answers it as reads now show it. */
@CommandHandler(ConfigureChannelCommand)
export class ConfigureChannelHandler implements ICommandHandler<ConfigureChannelCommand> {
  constructor(
    @Inject(ACCOUNT_SETTINGS_DEPS) private readonly deps: AccountSettingsDeps,
    private readonly consistency: ReadYourWrites,
    private readonly channels: ChannelAdminQueries,
  ) {}

  async execute({ ctx, key, channel }: ConfigureChannelCommand) {
    const outcome = await configureChannel(this.deps, key, channel, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const row = await this.channels.get(key);
    if (!row) throw new Error(`Channel ${key} was configured but is not in the read model`);
    return { channel: presentChannel(row, true, this.deps.box) };
  }
}
