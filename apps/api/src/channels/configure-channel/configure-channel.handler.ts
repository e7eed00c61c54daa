import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { configureChannel, SECRET_BOX, SecretBox } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { EnvironmentQueries } from '@notify/projections/environments';
import { commandMetadata } from '../../shared/command-metadata';
import { presentChannel } from '../present-channel';
import { ConfigureChannelCommand } from './configure-channel.command';

/** Configures a channel (see configureChannel) and answers it as reads now show it. */
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
    const deps = { store: this.store, box: this.box, environmentExists: async (slug: string) => !!(await this.environments.getEnvironment(slug)) };
    const outcome = await configureChannel(deps, key, channel, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const row = await this.channels.get(key);
    if (!row) throw new Error(`Channel ${key} was configured but is not in the read model`);
    return { channel: presentChannel(row, true) };
  }
}
