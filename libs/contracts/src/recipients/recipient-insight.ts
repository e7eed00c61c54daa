import { z } from 'zod';
import { defineRoute } from '../http/route';
import { PreferenceSetData } from './preferences';

/**
 * What the console shows of a recipient beyond the reference API (ADR 0212): the preference
 * layers the engine merges for it, and the audiences it belongs to.
 */
export const PreferenceLayersResponse = z
  .object({
    tenant: z.string().nullable(),
    /** Least specific first, as the engine merges them; null: the layer has no set. */
    layers: z.object({
      environment_default: PreferenceSetData.nullable(),
      tenant_default: PreferenceSetData.nullable(),
      recipient_default: PreferenceSetData.nullable(),
      recipient_in_tenant: PreferenceSetData.nullable(),
    }),
    /** The layers merged setting by setting, a more specific layer winning: what a send decides by. */
    merged: PreferenceSetData,
  })
  .meta({ id: 'PreferenceLayersResponse' });

export const getUserPreferenceLayersRoute = defineRoute({
  operationId: 'getUserPreferenceLayers',
  method: 'GET',
  path: '/v1/users/{user_id}/preference_layers',
  summary: "A user's preferences per layer (environment, tenant, user, user in tenant) and merged, as a send sees them",
  tags: ['Preferences'],
  auth: 'secret',
  rateTier: 4,
  params: z.strictObject({ user_id: z.string().min(1).max(255) }),
  query: z.object({ tenant: z.string().min(1).max(255).optional() }),
  response: PreferenceLayersResponse,
});

export const UserAudienceMembership = z
  .object({
    audience_key: z.string(),
    /** static: added as a member; dynamic: the user's properties match a segment now. */
    kind: z.enum(['static', 'dynamic']),
    /** Static memberships of a tenant count only in that tenant's context. */
    tenant: z.string().nullable(),
    added_at: z.string(),
    /** Dynamic: when the matching stops holding by time alone (null: it does not). */
    until: z.string().nullable(),
  })
  .meta({ id: 'UserAudienceMembership' });

export const listUserAudiencesRoute = defineRoute({
  operationId: 'listUserAudiences',
  method: 'GET',
  path: '/v1/users/{user_id}/audiences',
  summary: 'The audiences a user belongs to now, static and dynamic',
  tags: ['Audiences'],
  auth: 'secret',
  rateTier: 4,
  params: z.strictObject({ user_id: z.string().min(1).max(255) }),
  response: z.object({ entries: z.array(UserAudienceMembership) }).meta({ id: 'ListUserAudiencesResponse' }),
});
