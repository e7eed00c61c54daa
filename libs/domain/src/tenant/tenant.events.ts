import type { EventOf, TenantDeleted, TenantSet } from '@notify/contracts';

export type TenantEvent = EventOf<typeof TenantSet> | EventOf<typeof TenantDeleted>;
