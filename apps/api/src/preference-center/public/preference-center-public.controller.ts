import { Controller } from '@nestjs/common';
import { generatePreferenceCenterSignedUrlRoute, getPreferenceCenterConfigRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, PublicUrl, RequestContext } from '@notify/http';
import { PreferenceCenterPublic } from './preference-center-public.service';

/** The preference center in the public API: its configuration as a user sees it, and a signed link to the hosted page. */
@Controller()
export class PreferenceCenterPublicController {
  constructor(private readonly center: PreferenceCenterPublic) {}

  @Endpoint(getPreferenceCenterConfigRoute)
  config(@Input() { params }: RouteInput<typeof getPreferenceCenterConfigRoute>, @Ctx() ctx: RequestContext) {
    return this.center.config(ctx.environment, params.user_id);
  }

  @Endpoint(generatePreferenceCenterSignedUrlRoute)
  signedUrl(
    @Input() { params, query }: RouteInput<typeof generatePreferenceCenterSignedUrlRoute>,
    @Ctx() ctx: RequestContext,
    @PublicUrl() publicUrl: string,
  ) {
    return this.center.signedUrl(ctx.environment, params.user_id, query.tenant ?? null, publicUrl);
  }
}
