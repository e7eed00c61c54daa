import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { listOf, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';
import { InlineChannelDataRequest } from './channel-data';
import { RecipientId } from './common';
import { InlinePreferenceSetRequest, PreferenceSet, PreferenceSetRequest } from './preferences';

const Color = z.string().max(64).nullable().optional();
const Url = z.url().max(2048).nullable().optional();

export const TenantBranding = z.strictObject({
  icon_url: Url,
  logo_url: Url,
  primary_color: Color,
  primary_color_contrast: Color,
  dark_icon_url: Url,
  dark_logo_url: Url,
  dark_primary_color: Color,
  dark_primary_color_contrast: Color,
});
export type TenantBrandingT = z.infer<typeof TenantBranding>;

export const TenantSettingsRequest = z.strictObject({
  branding: TenantBranding.nullable().optional(),
  preference_set: PreferenceSetRequest.nullable().optional(),
});

export const SetTenantBody = z
  .object({
    name: z.string().max(1000).nullable().optional(),
    settings: TenantSettingsRequest.nullable().optional(),
    channel_data: InlineChannelDataRequest.nullable().optional(),
    preferences: InlinePreferenceSetRequest.nullable().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'SetTenantRequest' });
export type SetTenantBodyT = z.infer<typeof SetTenantBody>;

export const Tenant = z
  .object({
    __typename: z.literal('Tenant'),
    id: z.string(),
    name: z.string().nullable(),
    settings: z.object({ branding: TenantBranding.nullable(), preference_set: PreferenceSet.nullable() }).nullable(),
    created_at: z.string().nullable(),
    updated_at: z.string(),
  })
  .catchall(z.unknown())
  .meta({ id: 'Tenant' });
export type TenantT = z.infer<typeof Tenant>;

export const TenantPath = z.object({ id: RecipientId });

// Events

export const TenantSet = defineEvent(
  'TenantSet',
  1,
  z.object({
    tenant_id: z.string(),
    /** Custom properties and `name` this call set; null removes one. */
    properties: z.record(z.string(), z.unknown()),
    /** Settings after this call, when it changed them (branding as given; the preference set whole). */
    settings: z
      .object({ branding: z.record(z.string(), z.unknown()).nullable(), preference_set: z.record(z.string(), z.unknown()).nullable() })
      .optional(),
    set_at: z.string(),
  }),
);

export const TenantDeleted = defineEvent('TenantDeleted', 1, z.object({ tenant_id: z.string(), deleted_at: z.string() }));

export const tenantEventContracts = [TenantSet, TenantDeleted] as const;

// Routes

export const setTenantRoute = defineRoute({
  operationId: 'setTenant',
  method: 'PUT',
  path: '/v1/tenants/{id}',
  summary: 'Create or update a tenant',
  tags: ['Tenants'],
  auth: 'secret',
  rateTier: 3,
  params: TenantPath,
  query: z.object({ resolve_full_preference_settings: z.enum(['true', 'false']).optional() }),
  body: SetTenantBody,
  response: Tenant,
});

export const getTenantRoute = defineRoute({
  operationId: 'getTenant',
  method: 'GET',
  path: '/v1/tenants/{id}',
  summary: 'Get a tenant',
  tags: ['Tenants'],
  auth: 'secret',
  rateTier: 4,
  params: TenantPath,
  query: z.object({ resolve_full_preference_settings: z.enum(['true', 'false']).optional() }),
  response: Tenant,
});

export const deleteTenantRoute = defineRoute({
  operationId: 'deleteTenant',
  method: 'DELETE',
  path: '/v1/tenants/{id}',
  summary: 'Delete a tenant',
  tags: ['Tenants'],
  auth: 'secret',
  rateTier: 2,
  params: TenantPath,
  response: null,
});

export const listTenantsRoute = defineRoute({
  operationId: 'listTenants',
  method: 'GET',
  path: '/v1/tenants',
  summary: 'List tenants, newest first; filter by exact tenant_id or name',
  tags: ['Tenants'],
  auth: 'secret',
  rateTier: 4,
  query: PageQuery.extend({ tenant_id: RecipientId.optional(), name: z.string().max(1000).optional() }),
  response: listOf(Tenant).meta({ id: 'ListTenantsResponse' }),
});
