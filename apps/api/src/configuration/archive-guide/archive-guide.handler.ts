import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { archiveGuide } from '@notify/application';
import { branchParent } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentOrder } from '../shared/environments';
import { ArchiveGuideCommand } from './archive-guide.command';

/** Archives a guide in every environment that serves it (as audiences are, ADR 0171); 404 when none does. */
@CommandHandler(ArchiveGuideCommand)
export class ArchiveGuideHandler implements ICommandHandler<ArchiveGuideCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly environments: EnvironmentOrder,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, key }: ArchiveGuideCommand): Promise<{ result: string }> {
    const outcomes = await archiveGuide(
      this.store,
      // In a branch (ADR 0156) only the branch's copy; otherwise every environment.
      branchParent(ctx.environment) !== undefined ? [ctx.environment] : await this.environments.slugs(),
      key,
      (environment) => this.resources.exists(environment, 'guide', key),
      commandMetadata(ctx),
    );
    await this.consistency.settleAll(outcomes.flatMap((o) => (o.append ? [{ append: o.append, events: o.events }] : [])));
    return { result: 'success' };
  }
}
