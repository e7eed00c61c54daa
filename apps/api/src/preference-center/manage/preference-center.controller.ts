import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  deletePreferenceCategoryRoute,
  getPreferenceCenterRoute,
  listPreferenceCategoriesRoute,
  resetPreferenceCenterRoute,
  RouteInput,
  upsertPreferenceCategoryRoute,
  upsertPreferenceCenterRoute,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import {
  ConfigurePreferenceCenterCommand,
  DeletePreferenceCategoryCommand,
  GetPreferenceCenterQuery,
  ListPreferenceCategoriesQuery,
  UpsertPreferenceCategoryCommand,
} from './preference-center.messages';

/** Preference categories and the preference center in the management API (ADR 0189). */
@Controller()
export class ManagePreferenceCenterController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Endpoint(listPreferenceCategoriesRoute)
  listCategories() {
    return this.queries.execute(new ListPreferenceCategoriesQuery());
  }

  @Endpoint(upsertPreferenceCategoryRoute)
  upsertCategory(@Input() { params }: RouteInput<typeof upsertPreferenceCategoryRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertPreferenceCategoryCommand(ctx, params.name));
  }

  @Endpoint(deletePreferenceCategoryRoute)
  async deleteCategory(@Input() { params }: RouteInput<typeof deletePreferenceCategoryRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeletePreferenceCategoryCommand(ctx, params.name));
  }

  @Endpoint(getPreferenceCenterRoute)
  get(@Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetPreferenceCenterQuery(ctx.environment));
  }

  @Endpoint(upsertPreferenceCenterRoute)
  upsert(@Input() { body }: RouteInput<typeof upsertPreferenceCenterRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ConfigurePreferenceCenterCommand(ctx, { config: body.config, enabled: body.enabled }));
  }

  @Endpoint(resetPreferenceCenterRoute)
  reset(@Ctx() ctx: RequestContext) {
    return this.commands.execute(new ConfigurePreferenceCenterCommand(ctx, 'reset'));
  }
}
