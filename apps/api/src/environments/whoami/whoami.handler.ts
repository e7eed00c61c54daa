import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { WhoamiResponseT } from '@notify/contracts';
import { Authenticator } from '@notify/http';
import { EnvironmentLookup } from '../environment-lookup';
import { WhoamiQuery } from './whoami.query';

/**
 * The account and the service token of the call. The features say what this service has:
 * translations, tenant preferences, batch render limits, branding in layouts and guides (no
 * monthly recipient limit, not scoped per tenant); no
 * extensions, SSO or directory sync. Nothing is metered (no send limit); messages are listed for
 * MESSAGE_RETENTION_DAYS.
 */
@QueryHandler(WhoamiQuery)
export class WhoamiHandler implements IQueryHandler<WhoamiQuery> {
  constructor(
    private readonly environments: EnvironmentLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: Authenticator,
  ) {}

  async execute({ serviceTokenId, kind }: WhoamiQuery): Promise<WhoamiResponseT> {
    // A console member's session is a person's context, as the hosted dashboard's login is.
    const member = kind === 'member' ? await this.auth.member(serviceTokenId) : undefined;
    return {
      account_name: this.config.ACCOUNT_NAME,
      account_slug: accountSlug(this.config.ACCOUNT_NAME),
      type: member ? 'oauth_context' : 'service_token',
      service_token_name: member ? null : ((await this.environments.queries.serviceTokenName(serviceTokenId)) ?? null),
      user_email: member?.email ?? null,
      user_id: member?.memberId ?? null,
      user_name: member?.name ?? null,
      account_features: {
        batch_items_render_limit_allowed: true,
        custom_branding_allowed: true,
        data_retention_days: this.config.MESSAGE_RETENTION_DAYS,
        data_warehouse_extension_allowed: false,
        datadog_extension_allowed: false,
        dsync_allowed: false,
        guides_monthly_notified_recipients_limit: null,
        guides_per_tenant_scope_allowed: false,
        heap_extension_allowed: false,
        knock_branding_required: false,
        litmus_email_preview_allowed: false,
        message_sent_limit: null,
        new_relic_extension_allowed: false,
        permission_groups_allowed: false,
        segment_extension_allowed: false,
        self_serve_allowed: false,
        sso_allowed: false,
        tenant_preferences_allowed: true,
        translations_allowed: true,
      },
    };
  }
}

/** `Acme, Inc.` -> `acme-inc` */
export function accountSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'account'
  );
}
