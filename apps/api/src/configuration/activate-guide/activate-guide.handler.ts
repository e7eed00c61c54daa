import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { setGuideActive } from '@notify/application';
import { resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { guideKind } from '../shared/resource-kinds';
import { ActivateGuideCommand } from './activate-guide.command';

/** Activation applies to whatever version of the guide the environment serves (ADR 0186). */
@CommandHandler(ActivateGuideCommand)
export class ActivateGuideHandler implements ICommandHandler<ActivateGuideCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, key, activation }: ActivateGuideCommand) {
    const served = await this.resources.get(ctx.environment, 'guide', key);
    const outcome = await setGuideActive(this.store, ctx.environment, key, activation, served, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const record = await this.resources.get(ctx.environment, 'guide', key);
    if (!record) throw resourceMissing('guide');
    return { guide: guideKind.present(record, {}) };
  }
}
