import { z } from 'zod';
import { EnvironmentSlug } from '../events/environment.events';
import { defineRoute } from '../http/route';
import { mgmtListOf, MgmtPageQuery } from './mgmt';

/** An environment as the management API shows it. */
export const Environment = z
  .object({
    slug: z.string(),
    name: z.string(),
    /** Lowest first: commits are made in the first and promoted along the order. */
    order: z.number().int(),
    /** `system` for the environments the service created on its first start, `user` for those an operator added. */
    owner: z.enum(['system', 'user']),
    created_at: z.string(),
    /** The last change to the environment itself (created, security mode). */
    updated_at: z.string(),
    /** When the latest commit was made in (or promoted to) the environment. */
    last_commit_at: z.string().nullable(),
    /** Environments are never deleted here. */
    deleted_at: z.null(),
    hide_pii_data: z.boolean(),
    label_color: z.string().nullable(),
  })
  .meta({ id: 'Environment' });
export type EnvironmentT = z.infer<typeof Environment>;

export const listEnvironmentsRoute = defineRoute({
  operationId: 'listEnvironments',
  method: 'GET',
  path: '/v1/environments',
  summary: 'List the environments of the account, in their order',
  tags: ['Environments'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  query: MgmtPageQuery,
  response: mgmtListOf(Environment).meta({ id: 'ListEnvironmentsResponse' }),
});

export const getEnvironmentRoute = defineRoute({
  operationId: 'getEnvironment',
  method: 'GET',
  path: '/v1/environments/{environment_slug}',
  summary: 'Get an environment',
  tags: ['Environments'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  params: z.strictObject({ environment_slug: EnvironmentSlug }),
  response: Environment,
});

/** What the account may use. The Knock CLI reads `translations_allowed` before any translation command. */
export const AccountFeatures = z
  .object({
    batch_items_render_limit_allowed: z.boolean(),
    custom_branding_allowed: z.boolean(),
    data_retention_days: z.number().int().nullable(),
    data_warehouse_extension_allowed: z.boolean(),
    datadog_extension_allowed: z.boolean(),
    dsync_allowed: z.boolean(),
    guides_monthly_notified_recipients_limit: z.number().int().nullable(),
    guides_per_tenant_scope_allowed: z.boolean(),
    heap_extension_allowed: z.boolean(),
    knock_branding_required: z.boolean(),
    litmus_email_preview_allowed: z.boolean(),
    message_sent_limit: z.number().int().nullable(),
    new_relic_extension_allowed: z.boolean(),
    permission_groups_allowed: z.boolean(),
    segment_extension_allowed: z.boolean(),
    self_serve_allowed: z.boolean(),
    sso_allowed: z.boolean(),
    tenant_preferences_allowed: z.boolean(),
    translations_allowed: z.boolean(),
  })
  .meta({ id: 'AccountFeatures' });

export const WhoamiResponse = z
  .object({
    account_name: z.string(),
    account_slug: z.string(),
    type: z.enum(['service_token', 'oauth_context']),
    service_token_name: z.string().nullable(),
    user_email: z.string().nullable(),
    user_id: z.string().nullable(),
    user_name: z.string().nullable(),
    account_features: AccountFeatures,
  })
  .meta({ id: 'WhoamiResponse' });
export type WhoamiResponseT = z.infer<typeof WhoamiResponse>;

export const whoamiRoute = defineRoute({
  operationId: 'getWhoami',
  method: 'GET',
  path: '/v1/whoami',
  summary: 'The account and the service token the call is made with',
  tags: ['Accounts'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  response: WhoamiResponse,
});
