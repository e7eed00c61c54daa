import { Inject, Injectable } from '@nestjs/common';
import { PreferenceLinks } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { PreferenceCenterConfigWithMetadataT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { PREFERENCE_LINKS } from '@notify/platform';
import { PreferenceCenterQueries } from '@notify/projections/preference-center';
import { TenantQueries } from '@notify/projections/tenants';
import { UserQueries } from '@notify/projections/users';

/** Reads of the public API about the preference center (ADR 0189, 0190). */
@Injectable()
export class PreferenceCenterPublic {
  constructor(
    @Inject(PREFERENCE_LINKS) private readonly links: PreferenceLinks,
    @Inject(APP_CONFIG) private readonly settings: AppConfig,
    private readonly centers: PreferenceCenterQueries,
    private readonly users: UserQueries,
    private readonly tenants: TenantQueries,
  ) {}

  /** The environment's configuration, with the account's name and a label for the user (email, else id). */
  async config(environment: string, userId: string): Promise<PreferenceCenterConfigWithMetadataT> {
    const user = await this.users.get(environment, userId);
    if (!user) throw resourceMissing('user');
    const center = await this.centers.center(environment);
    return {
      enabled: center.enabled,
      config: center.config,
      branding: { icon_url: null, logo_url: null, primary_color: null, primary_color_contrast: null },
      account_name: this.settings.ACCOUNT_NAME,
      user_email: user.email ?? user.id,
      knock_branding_required: false,
    };
  }

  /** A signed, expiring link to the user's hosted page (in a tenant: the user's preferences there), under the service's public address. */
  async signedUrl(environment: string, userId: string, tenant: string | null, publicUrl: string): Promise<{ url: string; token: string }> {
    if (!(await this.users.get(environment, userId))) throw resourceMissing('user');
    if (tenant && !(await this.tenants.get(environment, tenant))) throw resourceMissing('tenant');
    const token = this.links.token('page', { environment, userId, tenant }, new Date());
    return { url: this.links.pageUrl(token, publicUrl), token };
  }
}
