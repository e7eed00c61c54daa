import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { readGuideGroup, setGuideGroup } from '@notify/application';
import { DEFAULT_GUIDE_GROUP_KEY, GuideGroupConfigT } from '@notify/contracts';
import { GuideGroupState, invalidParams } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { GetGuideGroupQuery, SetGuideGroupCommand } from './guide-groups.messages';

/** Only the default group exists (the clients read no other): another key is bad input. */
function checkKey(key: string): void {
  if (key !== DEFAULT_GUIDE_GROUP_KEY)
    throw invalidParams([
      { field: 'guide_group_key', message: `only the ${DEFAULT_GUIDE_GROUP_KEY} guide group exists`, type: 'reference' },
    ]);
}

function present(environment: string, key: string, state: GuideGroupState): GuideGroupConfigT {
  return {
    key,
    display_sequence: state.settings?.display_sequence ?? [],
    display_sequence_unthrottled: state.settings?.display_sequence_unthrottled ?? [],
    display_interval: state.settings?.display_interval ?? null,
    environment,
    created_at: state.createdAt,
    updated_at: state.updatedAt,
  };
}

@QueryHandler(GetGuideGroupQuery)
export class GetGuideGroupHandler implements IQueryHandler<GetGuideGroupQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ environment, key }: GetGuideGroupQuery): Promise<GuideGroupConfigT> {
    checkKey(key);
    return present(environment, key, await readGuideGroup(this.store, environment, key));
  }
}

/** Every key the group names must be a guide the environment serves; nothing is written otherwise (ADR 0166). */
@CommandHandler(SetGuideGroupCommand)
export class SetGuideGroupHandler implements ICommandHandler<SetGuideGroupCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, key, settings }: SetGuideGroupCommand): Promise<{ guide_group: GuideGroupConfigT }> {
    checkKey(key);
    const environment = ctx.environment;
    const errors = [];
    for (const list of ['display_sequence', 'display_sequence_unthrottled'] as const)
      for (const [i, guideKey] of settings[list].entries())
        if (!(await this.resources.get(environment, 'guide', guideKey)))
          errors.push({ field: `guide_group.${list}.${i}`, message: `no guide ${guideKey} exists in ${environment}`, type: 'reference' });
    if (errors.length) throw invalidParams(errors, 'The guide group names guides that do not exist');
    const outcome = await setGuideGroup(this.store, environment, key, settings, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    return { guide_group: present(environment, key, outcome.state) };
  }
}
