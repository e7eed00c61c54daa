import { TenantDeleted, TenantSet } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { defineProjection } from '@notify/projection-runtime';

export const tenantsProjection = defineProjection({
  name: 'tenants',
  version: 1,
  tables: ['rm_tenants'],
  events: [TenantSet, TenantDeleted],
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
    },
    async TenantDeleted({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_tenants WHERE environment = $1 AND id = $2', [environment, data.tenant_id]);
    },
  },
});
