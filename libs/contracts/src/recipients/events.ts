import { audienceEventContracts } from './audiences';
import { bulkOperationEventContracts } from './bulk-operations';
import { channelDataEventContracts } from './channel-data';
import { objectEventContracts } from './objects';
import { preferenceEventContracts } from './preferences';
import { subscriptionEventContracts } from './subscriptions';
import { tenantEventContracts } from './tenants';

/** Every recipient event except the user's own (registered with the users contract). */
export const recipientEventContracts = [
  ...objectEventContracts,
  ...tenantEventContracts,
  ...preferenceEventContracts,
  ...channelDataEventContracts,
  ...subscriptionEventContracts,
  ...bulkOperationEventContracts,
  ...audienceEventContracts,
] as const;
