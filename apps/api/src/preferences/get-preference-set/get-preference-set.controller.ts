import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getObjectPreferencesRoute, getUserPreferencesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetPreferenceSetQuery } from './get-preference-set.query';

@Controller()
export class GetPreferenceSetController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getUserPreferencesRoute)
  forUser(@Input() { params, query }: RouteInput<typeof getUserPreferencesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetPreferenceSetQuery(ctx.environment, { type: 'user', id: params.user_id }, params.id, query.tenant));
  }

  @Endpoint(getObjectPreferencesRoute)
  forObject(@Input() { params, query }: RouteInput<typeof getObjectPreferencesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new GetPreferenceSetQuery(
        ctx.environment,
        { type: 'object', collection: params.collection, id: params.object_id },
        params.id,
        query.tenant,
      ),
    );
  }
}
