import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { listObjectPreferencesRoute, listUserPreferencesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ListPreferenceSetsQuery } from './list-preference-sets.query';

@Controller()
export class ListPreferenceSetsController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listUserPreferencesRoute)
  forUser(@Input() { params }: RouteInput<typeof listUserPreferencesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListPreferenceSetsQuery(ctx.environment, { type: 'user', id: params.user_id }));
  }

  @Endpoint(listObjectPreferencesRoute)
  forObject(@Input() { params }: RouteInput<typeof listObjectPreferencesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new ListPreferenceSetsQuery(ctx.environment, { type: 'object', collection: params.collection, id: params.object_id }),
    );
  }
}
