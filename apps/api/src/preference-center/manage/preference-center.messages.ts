import { Command, Query } from '@nestjs/cqrs';
import { PreferenceCategoryT, PreferenceCenterConfigDataT, PreferenceCenterResponseT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class ListPreferenceCategoriesQuery extends Query<{ entries: PreferenceCategoryT[] }> {}

export class UpsertPreferenceCategoryCommand extends Command<{ preference_category: PreferenceCategoryT }> {
  constructor(
    readonly ctx: RequestContext,
    readonly name: string,
  ) {
    super();
  }
}

export class DeletePreferenceCategoryCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly name: string,
  ) {
    super();
  }
}

export class GetPreferenceCenterQuery extends Query<PreferenceCenterResponseT> {
  constructor(readonly environment: string) {
    super();
  }
}

/** Sets the preference center, or (`reset`) puts the default content back. */
export class ConfigurePreferenceCenterCommand extends Command<PreferenceCenterResponseT> {
  constructor(
    readonly ctx: RequestContext,
    readonly change: { config: PreferenceCenterConfigDataT; enabled?: boolean } | 'reset',
  ) {
    super();
  }
}
