import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { archiveAudience } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentOrder } from '../shared/environments';
import { ArchiveAudienceCommand } from './archive-audience.command';

/** Archives an audience in every environment it exists in; 404 when it exists in none. */
@CommandHandler(ArchiveAudienceCommand)
export class ArchiveAudienceHandler implements ICommandHandler<ArchiveAudienceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly environments: EnvironmentOrder,
  ) {}

  async execute({ ctx, key }: ArchiveAudienceCommand): Promise<{ result: string }> {
    const outcomes = await archiveAudience({ store: this.store }, await this.environments.slugs(), key, commandMetadata(ctx));
    await this.consistency.settleAll(outcomes.flatMap((o) => (o.append ? [{ append: o.append, events: o.events }] : [])));
    return { result: 'success' };
  }
}
