import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { setWorkflowActive } from '@notify/application';
import { resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { workflowKind } from '../shared/resource-kinds';
import { ActivateWorkflowCommand } from './activate-workflow.command';

/** Activation is per environment and not versioned: it applies to whatever version the environment serves. */
@CommandHandler(ActivateWorkflowCommand)
export class ActivateWorkflowHandler implements ICommandHandler<ActivateWorkflowCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, key, active }: ActivateWorkflowCommand) {
    const served = await this.resources.get(ctx.environment, 'workflow', key);
    const outcome = await setWorkflowActive(this.store, ctx.environment, key, active, served, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const record = await this.resources.get(ctx.environment, 'workflow', key);
    if (!record) throw resourceMissing('workflow');
    return { workflow: workflowKind.present(record, {}) };
  }
}
