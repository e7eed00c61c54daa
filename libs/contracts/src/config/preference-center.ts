import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { RecipientId } from '../recipients/common';
import { EnvironmentQuery } from './mgmt';

/**
 * Preference categories (account-wide names workflows are filed under) and the hosted preference
 * center of an environment: which rows it shows, with their labels and order (ADR 0189).
 */

export const PreferenceCategoryName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must contain only letters, digits, _ . : and -');

export const PreferenceCategory = z
  .object({
    name: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    archived_at: z.string().nullable().optional(),
  })
  .meta({ id: 'PreferenceCategory' });
export type PreferenceCategoryT = z.infer<typeof PreferenceCategory>;

/** The channel types a row may be scoped to (as the reference lists them). */
export const PreferenceCenterChannelType = z.enum([
  'email',
  'in_app',
  'in_app_feed',
  'in_app_guide',
  'sms',
  'push',
  'chat',
  'http',
  'log',
  'deferred_log',
]);

export const PreferenceCenterRowType = z.enum(['workflow', 'channel', 'category', 'channel_types', 'commercial_subscribed']);

export const PreferenceCenterRow = z
  .strictObject({
    type: PreferenceCenterRowType,
    name: z.string().min(1).max(255),
    description: z.string().max(1000).optional(),
    /** The category name, workflow key or channel id the row controls. */
    identifier: z.string().min(1).max(255).nullable().optional(),
    /** The channel types the row offers; empty or null: every channel type. */
    channel_types: z.array(PreferenceCenterChannelType).max(10).nullable().optional(),
  })
  .superRefine((row, ctx) => {
    if (['workflow', 'channel', 'category'].includes(row.type) && !row.identifier)
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: `a ${row.type} row needs an identifier` });
  });
export type PreferenceCenterRowT = z.infer<typeof PreferenceCenterRow>;

export const PreferenceCenterConfigData = z.strictObject({
  title: z.string().min(1).max(255),
  body: z.string().max(5000),
  show_account_name: z.boolean().optional(),
  rows: z.array(PreferenceCenterRow).max(100),
});
export type PreferenceCenterConfigDataT = z.infer<typeof PreferenceCenterConfigData>;

export const PreferenceCenterRequest = z.strictObject({
  config: PreferenceCenterConfigData,
  enabled: z.boolean().optional(),
});

export const PreferenceCenterResponse = z.object({ config: PreferenceCenterConfigData, enabled: z.boolean() });
export type PreferenceCenterResponseT = z.infer<typeof PreferenceCenterResponse>;

/** The content an environment's preference center has until it is configured, and after a reset. */
export const DEFAULT_PREFERENCE_CENTER_CONFIG: PreferenceCenterConfigDataT = {
  title: 'Notification preferences',
  body: 'Pick the notifications you want, and where you want them.',
  show_account_name: true,
  rows: [{ type: 'channel_types', name: 'Channels', description: 'Where we may reach you', channel_types: [] }],
};

// Events

export const PreferenceCategoryCreated = defineEvent(
  'PreferenceCategoryCreated',
  1,
  z.object({ name: z.string(), created_at: z.string() }),
);
export const PreferenceCategoryArchived = defineEvent(
  'PreferenceCategoryArchived',
  1,
  z.object({ name: z.string(), archived_at: z.string() }),
);
export const PreferenceCenterConfigured = defineEvent(
  'PreferenceCenterConfigured',
  1,
  z.object({ environment: z.string(), config: PreferenceCenterConfigData, enabled: z.boolean(), configured_at: z.string() }),
);

export const preferenceCenterEventContracts = [PreferenceCategoryCreated, PreferenceCategoryArchived, PreferenceCenterConfigured] as const;

// Management routes

const CategoryPath = z.object({ name: PreferenceCategoryName });

export const listPreferenceCategoriesRoute = defineRoute({
  operationId: 'listPreferenceCategories',
  method: 'GET',
  path: '/v1/preference_categories',
  summary: 'List the preference categories of the account, by name',
  tags: ['Preference categories'],
  auth: 'service',
  rateTier: 4,
  scope: 'account',
  response: z.object({ entries: z.array(PreferenceCategory) }).meta({ id: 'PreferenceCategoriesResponse' }),
});

export const upsertPreferenceCategoryRoute = defineRoute({
  operationId: 'upsertPreferenceCategory',
  method: 'PUT',
  path: '/v1/preference_categories/{name}',
  summary: 'Create a preference category (answers the existing one when it is there)',
  tags: ['Preference categories'],
  auth: 'service',
  rateTier: 3,
  scope: 'account',
  params: CategoryPath,
  response: z.object({ preference_category: PreferenceCategory }),
});

export const deletePreferenceCategoryRoute = defineRoute({
  operationId: 'deletePreferenceCategory',
  method: 'DELETE',
  path: '/v1/preference_categories/{name}',
  summary: 'Archive a preference category',
  tags: ['Preference categories'],
  auth: 'service',
  rateTier: 3,
  scope: 'account',
  params: CategoryPath,
  response: null,
  status: 204,
});

export const getPreferenceCenterRoute = defineRoute({
  operationId: 'getPreferenceCenter',
  method: 'GET',
  path: '/v1/preference_center',
  summary: "Get an environment's preference center configuration",
  tags: ['Preference center'],
  auth: 'service',
  rateTier: 4,
  query: EnvironmentQuery,
  response: PreferenceCenterResponse,
});

export const upsertPreferenceCenterRoute = defineRoute({
  operationId: 'upsertPreferenceCenter',
  method: 'PUT',
  path: '/v1/preference_center',
  summary: "Set an environment's preference center configuration",
  tags: ['Preference center'],
  auth: 'service',
  rateTier: 3,
  query: EnvironmentQuery,
  body: PreferenceCenterRequest,
  response: PreferenceCenterResponse,
});

export const resetPreferenceCenterRoute = defineRoute({
  operationId: 'resetPreferenceCenter',
  method: 'PUT',
  path: '/v1/preference_center/reset',
  summary: "Reset an environment's preference center to the default content (enabled is kept)",
  tags: ['Preference center'],
  auth: 'service',
  rateTier: 3,
  query: EnvironmentQuery,
  response: PreferenceCenterResponse,
});

// Public routes

const BrandingFields = {
  icon_url: z.string().nullable().optional(),
  logo_url: z.string().nullable().optional(),
  primary_color: z.string().nullable().optional(),
  primary_color_contrast: z.string().nullable().optional(),
};

export const PreferenceCenterConfigWithMetadata = z
  .object({
    enabled: z.boolean(),
    config: PreferenceCenterConfigData,
    branding: z.object({ ...BrandingFields, dark: z.object(BrandingFields).optional() }),
    account_name: z.string().nullable(),
    user_email: z.string().nullable(),
    knock_branding_required: z.boolean().optional(),
  })
  .meta({ id: 'PreferenceCenterConfigWithMetadata' });
export type PreferenceCenterConfigWithMetadataT = z.infer<typeof PreferenceCenterConfigWithMetadata>;

export const getPreferenceCenterConfigRoute = defineRoute({
  operationId: 'getPreferenceCenterConfig',
  method: 'GET',
  path: '/v1/users/{user_id}/preference_center/config',
  summary: "The environment's preference center configuration, as the user sees it",
  tags: ['Preference center'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 4,
  params: z.object({ user_id: RecipientId }),
  response: PreferenceCenterConfigWithMetadata,
});

export const PreferenceCenterSignedUrlResponse = z
  .object({ url: z.string(), token: z.string() })
  .meta({ id: 'PreferenceCenterSignedUrlResponse' });

export const generatePreferenceCenterSignedUrlRoute = defineRoute({
  operationId: 'generatePreferenceCenterSignedUrl',
  method: 'POST',
  path: '/v1/users/{user_id}/preference_center/signed_url',
  summary: "A signed, expiring link to the user's hosted preference page",
  tags: ['Preference center'],
  auth: 'secret',
  rateTier: 3,
  params: z.object({ user_id: RecipientId }),
  query: z.object({ tenant: RecipientId.optional() }),
  response: PreferenceCenterSignedUrlResponse,
});

// The hosted preference page and one-click unsubscribe (ADR 0190): HTML, reached by a signed link, no credentials.

const LinkPath = z.object({ token: z.string().min(1).max(4096) });
/** An HTML form's fields (application/x-www-form-urlencoded). */
const FormBody = z.record(z.string().max(600), z.string().max(1000)).optional();

export const preferencePageRoute = defineRoute({
  operationId: 'showPreferencePage',
  method: 'GET',
  path: '/p/{token}',
  summary: "The recipient's hosted preference page (HTML form), reached by a signed link",
  tags: ['Preference center'],
  auth: 'none',
  rateTier: 3,
  params: LinkPath,
  status: 200,
  produces: 'text/html',
  response: z.string(),
});

export const savePreferencePageRoute = defineRoute({
  operationId: 'savePreferencePage',
  method: 'POST',
  path: '/p/{token}',
  summary: 'Saves the hosted preference page form into the preference set of the recipient',
  tags: ['Preference center'],
  auth: 'none',
  rateTier: 3,
  params: LinkPath,
  body: FormBody,
  formBody: true,
  bodyLimit: 64 * 1024,
  status: 200,
  produces: 'text/html',
  response: z.string(),
});

export const unsubscribePageRoute = defineRoute({
  operationId: 'showUnsubscribePage',
  method: 'GET',
  path: '/p/{token}/unsubscribe',
  summary: 'Asks to confirm an unsubscribe link opened in a browser (a GET never unsubscribes)',
  tags: ['Preference center'],
  auth: 'none',
  rateTier: 3,
  params: LinkPath,
  status: 200,
  produces: 'text/html',
  response: z.string(),
});

export const oneClickUnsubscribeRoute = defineRoute({
  operationId: 'oneClickUnsubscribe',
  method: 'POST',
  path: '/p/{token}/unsubscribe',
  summary: "One-click unsubscribe (RFC 8058): opts the recipient out of the email of the link's categories",
  tags: ['Preference center'],
  auth: 'none',
  rateTier: 3,
  params: LinkPath,
  body: FormBody,
  formBody: true,
  bodyLimit: 16 * 1024,
  status: 200,
  produces: 'text/html',
  response: z.string(),
});
