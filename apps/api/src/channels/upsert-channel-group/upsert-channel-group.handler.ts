import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@notify/application';
import { channelGroupDecider, channelGroupStream, FieldError, invalidParams } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelAdminQueries } from '@notify/projections/channels';
import { commandMetadata } from '../../shared/command-metadata';
import { presentChannelGroup } from '../present-channel-group';
import { UpsertChannelGroupCommand } from './upsert-channel-group.command';

/** Every rule must name an existing channel of the group's type; otherwise nothing is written. */
@CommandHandler(UpsertChannelGroupCommand)
export class UpsertChannelGroupHandler implements ICommandHandler<UpsertChannelGroupCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly channels: ChannelAdminQueries,
    private readonly groups: ChannelGroupQueries,
  ) {}

  async execute({ ctx, key, group }: UpsertChannelGroupCommand) {
    const rules = group.channel_rules ?? [];
    const channels = await this.channels.byKeys(rules.map((r) => r.channel_key));
    const errors: FieldError[] = [];
    rules.forEach((rule, i) => {
      const channel = channels.find((c) => c.key === rule.channel_key && !c.archived_at);
      if (!channel) errors.push({ field: `channel_group.channel_rules.${i}.channel_key`, message: `no channel ${rule.channel_key} exists`, type: 'reference' });
      else if (channel.type !== group.channel_type) errors.push({ field: `channel_group.channel_rules.${i}.channel_key`, message: `is a ${channel.type} channel; this group holds ${group.channel_type} channels`, type: 'mismatch' });
    });
    if (errors.length) throw invalidParams(errors);
    const existing = await this.groups.get(key);
    const outcome = await handleCommand(
      this.store,
      channelGroupStream(key),
      channelGroupDecider,
      {
        type: 'UpsertChannelGroup',
        group: {
          key,
          name: group.name,
          channel_type: group.channel_type,
          operator: group.operator ?? 'any',
          visible_in: group.visible_in ?? existing?.visible_in ?? ['workflow', 'broadcast'],
          channel_rules: rules
            .map((r, i) => ({ ...r, index: r.index ?? i }))
            .sort((a, b) => a.index - b.index)
            .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as typeof r),
        },
        now: new Date().toISOString(),
      },
      { ...commandMetadata(ctx), environment: null },
    );
    await this.consistency.settle(outcome.append, outcome.events);
    const saved = await this.groups.get(key);
    if (!saved) throw new Error(`Channel group ${key} was written but is not in the read model`);
    return { channel_group: presentChannelGroup(saved, channels) };
  }
}
