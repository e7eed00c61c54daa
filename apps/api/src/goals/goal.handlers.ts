import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { archiveGoal, upsertGoal, validateGoal } from '@notify/application';
import { GoalT } from '@notify/contracts';
import { DomainError, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { GoalQueries, GoalRecord } from '@notify/projections/goals';
import { commandMetadata } from '../shared/command-metadata';
import {
  ArchiveGoalCommand,
  CloneGoalCommand,
  GetGoalQuery,
  ListGoalConversionsQuery,
  ListGoalsQuery,
  UpsertGoalCommand,
} from './goal.messages';

const present = (r: GoalRecord): GoalT => ({
  key: r.key,
  name: r.name,
  condition: r.condition,
  environment: r.environment,
  sha: r.sha,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

@QueryHandler(ListGoalsQuery)
export class ListGoalsHandler implements IQueryHandler<ListGoalsQuery> {
  constructor(private readonly goals: GoalQueries) {}

  async execute({ environment, page }: ListGoalsQuery) {
    const { entries, page_info } = await this.goals.list(environment, page);
    return { entries: entries.map(present), page_info };
  }
}

@QueryHandler(GetGoalQuery)
export class GetGoalHandler implements IQueryHandler<GetGoalQuery> {
  constructor(private readonly goals: GoalQueries) {}

  async execute({ environment, key }: GetGoalQuery) {
    const goal = await this.goals.get(environment, key);
    if (!goal) throw resourceMissing('goal');
    return present(goal);
  }
}

@CommandHandler(UpsertGoalCommand)
export class UpsertGoalHandler implements ICommandHandler<UpsertGoalCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly goals: GoalQueries,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, key, goal, save }: UpsertGoalCommand) {
    const content = { name: goal.name, condition: goal.condition };
    if (!save) {
      // Validation: the answer is the goal as it would be saved; nothing is written.
      const { sha } = validateGoal(key, content);
      const stored = await this.goals.get(ctx.environment, key);
      const at = new Date().toISOString();
      return {
        goal: {
          key,
          ...content,
          environment: ctx.environment,
          sha,
          created_at: stored?.createdAt.toISOString() ?? at,
          updated_at: stored?.updatedAt.toISOString() ?? at,
        },
      };
    }
    const outcome = await upsertGoal(this.store, ctx.environment, key, content, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const record = await this.goals.get(ctx.environment, key);
    if (!record) throw new Error(`goal ${key} was written but is not in the read model`);
    return { goal: present(record) };
  }
}

@CommandHandler(ArchiveGoalCommand)
export class ArchiveGoalHandler implements ICommandHandler<ArchiveGoalCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly goals: GoalQueries,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, key }: ArchiveGoalCommand) {
    if (!(await this.goals.get(ctx.environment, key))) throw resourceMissing('goal');
    const outcome = await archiveGoal(this.store, ctx.environment, key, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    return { result: 'success' };
  }
}

@CommandHandler(CloneGoalCommand)
export class CloneGoalHandler implements ICommandHandler<CloneGoalCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly goals: GoalQueries,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, key, clone }: CloneGoalCommand) {
    const source = await this.goals.get(ctx.environment, key);
    if (!source) throw resourceMissing('goal');
    if (!(await this.goals.environmentExists(clone.environment)))
      throw new DomainError('environment_missing', `No environment named ${clone.environment}`, 'not_found');
    if (await this.goals.get(clone.environment, clone.key))
      throw new DomainError('goal_exists', `A goal ${clone.key} already exists in ${clone.environment}`, 'conflict');
    const metadata = { ...commandMetadata(ctx), environment: clone.environment };
    const outcome = await upsertGoal(this.store, clone.environment, clone.key, { name: clone.name, condition: source.condition }, metadata);
    await this.consistency.settle(outcome.append, outcome.events);
    const record = await this.goals.get(clone.environment, clone.key);
    if (!record) throw new Error(`goal ${clone.key} was written but is not in the read model`);
    return { goal: present(record) };
  }
}

@QueryHandler(ListGoalConversionsQuery)
export class ListGoalConversionsHandler implements IQueryHandler<ListGoalConversionsQuery> {
  constructor(private readonly goals: GoalQueries) {}

  async execute({ environment, key }: ListGoalConversionsQuery) {
    if (!(await this.goals.get(environment, key))) throw resourceMissing('goal');
    return { entries: await this.goals.conversions(environment, key) };
  }
}

export const goalHandlers = [
  ListGoalsHandler,
  GetGoalHandler,
  UpsertGoalHandler,
  ArchiveGoalHandler,
  CloneGoalHandler,
  ListGoalConversionsHandler,
];
