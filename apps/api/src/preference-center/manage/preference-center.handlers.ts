import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { archivePreferenceCategory, configurePreferenceCenter, upsertPreferenceCategory } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { PreferenceCenterQueries } from '@notify/projections/preference-center';
import { commandMetadata } from '../../shared/command-metadata';
import {
  ConfigurePreferenceCenterCommand,
  DeletePreferenceCategoryCommand,
  GetPreferenceCenterQuery,
  ListPreferenceCategoriesQuery,
  UpsertPreferenceCategoryCommand,
} from './preference-center.messages';

@QueryHandler(ListPreferenceCategoriesQuery)
export class ListPreferenceCategoriesHandler implements IQueryHandler<ListPreferenceCategoriesQuery> {
  constructor(private readonly queries: PreferenceCenterQueries) {}

  async execute() {
    return { entries: await this.queries.categories() };
  }
}

@CommandHandler(UpsertPreferenceCategoryCommand)
export class UpsertPreferenceCategoryHandler implements ICommandHandler<UpsertPreferenceCategoryCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly queries: PreferenceCenterQueries,
  ) {}

  async execute({ ctx, name }: UpsertPreferenceCategoryCommand) {
    const outcome = await upsertPreferenceCategory(this.store, name, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const category = await this.queries.category(name);
    if (!category) throw new Error(`Preference category ${name} was written but is not in the read model`);
    return { preference_category: category };
  }
}

@CommandHandler(DeletePreferenceCategoryCommand)
export class DeletePreferenceCategoryHandler implements ICommandHandler<DeletePreferenceCategoryCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, name }: DeletePreferenceCategoryCommand): Promise<void> {
    const outcome = await archivePreferenceCategory(this.store, name, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}

@QueryHandler(GetPreferenceCenterQuery)
export class GetPreferenceCenterHandler implements IQueryHandler<GetPreferenceCenterQuery> {
  constructor(private readonly queries: PreferenceCenterQueries) {}

  execute({ environment }: GetPreferenceCenterQuery) {
    return this.queries.center(environment);
  }
}

@CommandHandler(ConfigurePreferenceCenterCommand)
export class ConfigurePreferenceCenterHandler implements ICommandHandler<ConfigurePreferenceCenterCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly queries: PreferenceCenterQueries,
  ) {}

  async execute({ ctx, change }: ConfigurePreferenceCenterCommand) {
    const outcome = await configurePreferenceCenter(this.store, ctx.environment, change, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    return this.queries.center(ctx.environment);
  }
}
