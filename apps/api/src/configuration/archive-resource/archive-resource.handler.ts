import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { archiveResource } from '@notify/application';
import { branchParent } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentOrder } from '../shared/environments';
import { ArchiveResourceCommand } from './archive-resource.command';

/** Archives a workflow, layout or partial in every environment that serves it, as guides are (ADR 0225); 404 when none does. */
@CommandHandler(ArchiveResourceCommand)
export class ArchiveResourceHandler implements ICommandHandler<ArchiveResourceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly environments: EnvironmentOrder,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, type, key }: ArchiveResourceCommand): Promise<{ result: string }> {
    const outcomes = await archiveResource(
      this.store,
      type,
      key,
      // In a branch (ADR 0156) only the branch's copy; otherwise every environment.
      branchParent(ctx.environment) !== undefined ? [ctx.environment] : await this.environments.slugs(),
      (environment) => this.resources.exists(environment, type, key),
      commandMetadata(ctx),
      (environment) => this.resources.workflowVersions(environment),
    );
    await this.consistency.settleAll(outcomes.flatMap((o) => (o.append ? [{ append: o.append, events: o.events }] : [])));
    return { result: 'success' };
  }
}
