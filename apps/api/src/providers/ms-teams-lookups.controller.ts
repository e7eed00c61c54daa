import { Controller } from '@nestjs/common';
import { MsTeamsProviderLookups } from '@notify/application';
import {
  listMsTeamsChannelsRoute,
  listMsTeamsTeamsRoute,
  msTeamsAuthCheckRoute,
  msTeamsRevokeAccessRoute,
  RouteInput,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ProviderLookupDepsFactory } from './provider-lookup-deps';

@Controller()
export class MsTeamsLookupsController {
  constructor(private readonly deps: ProviderLookupDepsFactory) {}

  @Endpoint(msTeamsAuthCheckRoute)
  authCheck(@Input() { params, query }: RouteInput<typeof msTeamsAuthCheckRoute>, @Ctx() ctx: RequestContext) {
    return new MsTeamsProviderLookups(this.deps.for(ctx)).authCheck(ctx.environment, params.channel_id, query.ms_teams_tenant_object);
  }

  @Endpoint(listMsTeamsTeamsRoute)
  teams(@Input() { params, query }: RouteInput<typeof listMsTeamsTeamsRoute>, @Ctx() ctx: RequestContext) {
    return new MsTeamsProviderLookups(this.deps.for(ctx)).teams(
      ctx.environment,
      params.channel_id,
      query.ms_teams_tenant_object,
      query.query_options,
    );
  }

  @Endpoint(listMsTeamsChannelsRoute)
  channels(@Input() { params, query }: RouteInput<typeof listMsTeamsChannelsRoute>, @Ctx() ctx: RequestContext) {
    return new MsTeamsProviderLookups(this.deps.for(ctx)).channels(
      ctx.environment,
      params.channel_id,
      query.ms_teams_tenant_object,
      query.team_id,
      query.query_options,
    );
  }

  @Endpoint(msTeamsRevokeAccessRoute)
  revoke(@Input() { params, query }: RouteInput<typeof msTeamsRevokeAccessRoute>, @Ctx() ctx: RequestContext) {
    return new MsTeamsProviderLookups(this.deps.for(ctx)).revokeAccess(ctx.environment, params.channel_id, query.ms_teams_tenant_object);
  }
}
