import { Controller } from '@nestjs/common';
import { SlackProviderLookups } from '@notify/application';
import { listSlackChannelsRoute, RouteInput, slackAuthCheckRoute, slackRevokeAccessRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ProviderLookupDepsFactory } from './provider-lookup-deps';

@Controller()
export class SlackLookupsController {
  constructor(private readonly deps: ProviderLookupDepsFactory) {}

  @Endpoint(listSlackChannelsRoute)
  channels(@Input() { params, query }: RouteInput<typeof listSlackChannelsRoute>, @Ctx() ctx: RequestContext) {
    return new SlackProviderLookups(this.deps.for(ctx)).channels(
      ctx.environment,
      params.channel_id,
      query.access_token_object,
      query.query_options,
    );
  }

  @Endpoint(slackAuthCheckRoute)
  authCheck(@Input() { params, query }: RouteInput<typeof slackAuthCheckRoute>, @Ctx() ctx: RequestContext) {
    return new SlackProviderLookups(this.deps.for(ctx)).authCheck(ctx.environment, params.channel_id, query.access_token_object);
  }

  @Endpoint(slackRevokeAccessRoute)
  revoke(@Input() { params, query }: RouteInput<typeof slackRevokeAccessRoute>, @Ctx() ctx: RequestContext) {
    return new SlackProviderLookups(this.deps.for(ctx)).revokeAccess(ctx.environment, params.channel_id, query.access_token_object);
  }
}
