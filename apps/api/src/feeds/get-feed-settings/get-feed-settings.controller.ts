import { Controller } from '@nestjs/common';
import { getFeedSettingsRoute } from '@notify/contracts';
import { Endpoint } from '@notify/http';

/** A self-hosted feed carries no vendor branding: the one feature flag the client reads is off. */
@Controller()
export class GetFeedSettingsController {
  @Endpoint(getFeedSettingsRoute)
  get() {
    return { features: { branding_required: false } };
  }
}
