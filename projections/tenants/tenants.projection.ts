import { EventOf, TenantDeleted, TenantSet } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled = EventOf<typeof TenantSet> | EventOf<typeof TenantDeleted>;

export const tenantsProjection: Projection = {
  name: 'tenants',
  version: 1,
  filter: { eventTypes: ['TenantSet', 'TenantDeleted'] },
  tables: ['rm_tenants'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      const environment = recorded.metadata.environment;
      switch (event.type) {
        case 'TenantSet': {
          const { tenant_id, properties, settings, set_at } = event.data;
          const [row] = await tx.query<{ properties: Record<string, unknown>; settings: unknown }[]>(
            'SELECT properties, settings FROM rm_tenants WHERE environment = $1 AND id = $2',
            [environment, tenant_id],
          );
          const merged = mergeProperties(row?.properties ?? {}, properties);
          const nextSettings = settings ?? row?.settings ?? { branding: null, preference_set: null };
          await tx.query(
            `INSERT INTO rm_tenants (environment, id, name, properties, settings, inserted_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
             ON CONFLICT (environment, id) DO UPDATE SET name = EXCLUDED.name, properties = EXCLUDED.properties, settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
            [environment, tenant_id, typeof merged.name === 'string' ? merged.name : null, JSON.stringify(merged), JSON.stringify(nextSettings), set_at],
          );
          break;
        }
        case 'TenantDeleted':
          await tx.query('DELETE FROM rm_tenants WHERE environment = $1 AND id = $2', [environment, event.data.tenant_id]);
          break;
      }
    }
  },
};
