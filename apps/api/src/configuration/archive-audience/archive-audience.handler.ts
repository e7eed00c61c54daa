import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { archiveAudience } from '@notify/application';
import { assertNotBranch, DomainError } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { BroadcastQueries } from '@notify/projections/broadcasts';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentOrder } from '../shared/environments';
import { ArchiveAudienceCommand } from './archive-audience.command';

/**
 * Archives an audience in every environment it exists in; 404 when it exists in none, 400
 * `audience_in_use` while a broadcast is scheduled or sending to it.
 */
@CommandHandler(ArchiveAudienceCommand)
export class ArchiveAudienceHandler implements ICommandHandler<ArchiveAudienceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly environments: EnvironmentOrder,
    private readonly resources: ConfigResourceQueries,
    private readonly broadcasts: BroadcastQueries,
  ) {}

  async execute({ ctx, key }: ArchiveAudienceCommand): Promise<{ result: string }> {
    const environments = await this.archivedIn(ctx.environment);
    // A broadcast scheduled or sending to the audience would go out to nobody: it is canceled first.
    const [pending] = await this.broadcasts.pendingFor(environments, key);
    if (pending)
      throw new DomainError(
        'audience_in_use',
        `The audience is the target of broadcast ${pending.key} (${pending.status} in ${pending.environment}); cancel it before archiving the audience`,
      );
    const outcomes = await archiveAudience(
      { store: this.store, audienceDefinitions: this.resources },
      environments,
      key,
      commandMetadata(ctx),
    );
    await this.consistency.settleAll(outcomes.flatMap((o) => (o.append ? [{ append: o.append, events: o.events }] : [])));
    return { result: 'success' };
  }

  /**
   * Every environment. Not in a branch (ADR 0156): its copies of audiences are not in audience
   * streams, which this use case decides on, and archiving in every environment from a branch
   * would reach past it.
   */
  private async archivedIn(environment: string): Promise<string[]> {
    assertNotBranch(environment, 'Archiving an audience');
    return this.environments.slugs();
  }
}
