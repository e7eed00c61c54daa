import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand, SECRET_BOX, SecretBox, sealSettings, toDomainEvent } from '@notify/application';
import { Database } from '@notify/database';
import { channelDecider, ChannelEvent, channelStream, fold, invalidParams } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { EnvironmentQueries } from '@notify/projections/environments';
import { randomUUID } from 'node:crypto';
import { commandMetadata } from '../../shared/command-metadata';
import { presentChannel } from '../present-channel';
import { ConfigureChannelCommand } from './configure-channel.command';

/**
 * Configures a channel: name, provider, and settings per environment. Environments not named
 * keep their settings; secret settings (provider settings, and channel settings such as a
 * webhook's signing_secret) are sealed before they reach the log.
 */
@CommandHandler(ConfigureChannelCommand)
export class ConfigureChannelHandler implements ICommandHandler<ConfigureChannelCommand> {
  private readonly environments: EnvironmentQueries;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(DATABASE) database: Database,
    private readonly consistency: ReadYourWrites,
    private readonly channels: ChannelAdminQueries,
  ) {
    this.environments = new EnvironmentQueries(database.dataSource);
  }

  async execute({ ctx, key, channel }: ConfigureChannelCommand) {
    const stream = channelStream(key);
    const state = fold(channelDecider, (await this.store.readStream(stream)).map(toDomainEvent) as ChannelEvent[]);
    const previous = state.current?.environment_settings ?? {};
    const settings = { ...previous };
    const unknown = [];
    for (const [env, given] of Object.entries(channel.environment_settings ?? {})) {
      if (!(await this.environments.getEnvironment(env))) {
        unknown.push({ field: `channel.environment_settings.${env}`, message: `no environment named ${env}`, type: 'reference' });
        continue;
      }
      const before = previous[env];
      settings[env] = {
        channel_settings: given.channel_settings ? sealSettings(this.box, given.channel_settings, before?.channel_settings) : (before?.channel_settings ?? {}),
        provider_settings: given.provider_settings ? sealSettings(this.box, given.provider_settings, before?.provider_settings) : (before?.provider_settings ?? {}),
        is_sandbox: given.is_sandbox ?? before?.is_sandbox ?? false,
      };
    }
    if (unknown.length) throw invalidParams(unknown);
    const outcome = await handleCommand(
      this.store,
      stream,
      channelDecider,
      {
        type: 'ConfigureChannel',
        newChannelId: randomUUID(),
        key,
        name: channel.name,
        channelType: channel.type,
        provider: channel.provider,
        description: channel.description ?? null,
        environmentSettings: settings,
        now: new Date().toISOString(),
      },
      { ...commandMetadata(ctx), environment: null },
    );
    await this.consistency.settle(outcome.append, outcome.events);
    const row = await this.channels.get(key);
    if (!row) throw new Error(`Channel ${key} was configured but is not in the read model`);
    return { channel: presentChannel(row, true) };
  }
}
