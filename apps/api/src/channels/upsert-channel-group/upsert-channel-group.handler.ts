import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { upsertChannelGroup } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { commandMetadata } from '../../shared/command-metadata';
import { presentChannelGroup } from '../present-channel-group';
import { UpsertChannelGroupCommand } from './upsert-channel-group.command';

@CommandHandler(UpsertChannelGroupCommand)
export class UpsertChannelGroupHandler implements ICommandHandler<UpsertChannelGroupCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly channels: ChannelAdminQueries,
    private readonly groups: ChannelGroupQueries,
  ) {}

  async execute({ ctx, key, group }: UpsertChannelGroupCommand) {
    const deps = {
      store: this.store,
      channelsByKeys: (keys: string[]) => this.channels.byKeys(keys),
      existingGroup: (k: string) => this.groups.get(k),
    };
    const outcome = await upsertChannelGroup(deps, key, group, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const saved = await this.groups.get(key);
    if (!saved) throw new Error(`Channel group ${key} was written but is not in the read model`);
    return { channel_group: presentChannelGroup(saved, await this.channels.byKeys(saved.channel_rules.map((r) => r.channel_key))) };
  }
}
