import { AudienceArchived, AudienceUpserted, CommitPromoted, TenantDeleted, TenantSet } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { defineProjection } from '@notify/projection-runtime';
import type { AudienceContent } from '../audience-members/dynamic-membership';
import { defineAudienceTenants, followTenant } from '../audience-members/dynamic-tenant-membership';
import { toTenant } from './tenants.queries';

/** The tenant as conditions see it (`tenant`): the same shape the engine gives a run. */
const variablesOf = (row: Parameters<typeof toTenant>[0]) => {
  const { __typename: _t, ...tenant } = toTenant(row);
  return tenant as Record<string, unknown>;
};

/**
 * Tenants, and the tenant side of dynamic audiences (ADR 0202): it follows the tenants'
 * properties, so it is kept in the same transaction as the tenant's row. Version 2 builds it
 * from the log once.
 */
export const tenantsProjection = defineProjection({
  name: 'tenants',
  version: 2,
  tables: ['rm_tenants', 'rm_dynamic_audience_tenant_rules', 'rm_dynamic_audience_tenants'],
  events: [TenantSet, TenantDeleted, AudienceUpserted, CommitPromoted, AudienceArchived],
  on: {
    async TenantSet({ environment, data }, tx) {
      const { tenant_id, properties, settings, set_at } = data;
      const [row] = await tx.query<{ properties: Record<string, unknown>; settings: unknown }[]>(
        'SELECT properties, settings FROM rm_tenants WHERE environment = $1 AND id = $2',
        [environment, tenant_id],
      );
      const merged = mergeProperties(row?.properties ?? {}, properties);
      const nextSettings = settings ?? row?.settings ?? { branding: null, preference_set: null };
      await tx.query(
        `INSERT INTO rm_tenants (environment, id, name, properties, settings, inserted_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (environment, id) DO UPDATE SET name = EXCLUDED.name, properties = EXCLUDED.properties, settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
        [
          environment,
          tenant_id,
          typeof merged.name === 'string' ? merged.name : null,
          JSON.stringify(merged),
          JSON.stringify(nextSettings),
          set_at,
        ],
      );
      const [stored] = await tx.query<Parameters<typeof toTenant>[0][]>(
        'SELECT id, properties, settings, inserted_at, updated_at FROM rm_tenants WHERE environment = $1 AND id = $2',
        [environment, tenant_id],
      );
      await followTenant(tx, environment, tenant_id, variablesOf(stored));
    },
    async TenantDeleted({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_tenants WHERE environment = $1 AND id = $2', [environment, data.tenant_id]);
      await followTenant(tx, environment, data.tenant_id, null);
    },
    async AudienceUpserted({ environment, data }, tx) {
      await defineAudienceTenants(tx, environment, data.key, data.content as AudienceContent, variablesOf);
    },
    async AudienceArchived({ environment, data }, tx) {
      await defineAudienceTenants(tx, environment, data.audience_key, { type: 'archived' }, variablesOf);
    },
    async CommitPromoted({ environment, data }, tx) {
      if (data.resource.type === 'audience')
        await defineAudienceTenants(tx, environment, data.resource.identifier, data.content as AudienceContent, variablesOf);
    },
  },
});
