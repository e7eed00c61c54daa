import { Projection } from '@notify/projection-runtime';
import {
  AudienceMembersReadModel1763712001600,
  audienceMembersProjection,
  CreatedAudiencesReadModel1763712098000,
  createdAudiencesProjection,
  DynamicAudiencesReadModel1763712017100,
  DynamicAudienceTenants1763712021000,
} from './audience-members';
import { BulkOperationsReadModel1763712001500, bulkOperationsProjection } from './bulk-operations';
import { ChannelDataReadModel1763712001300, channelDataProjection } from './channel-data';
import { ObjectsReadModel1763712001000, objectsProjection } from './objects';
import { PreferencesReadModel1763712001200, preferencesProjection } from './preferences';
import { SubscriptionsReadModel1763712001400, subscriptionsProjection } from './subscriptions';
import { TenantsReadModel1763712001100, tenantsProjection } from './tenants';

/**
 * The recipient read models (objects, tenants, preferences, channel data, subscriptions, bulk operations, audience members,
 * audiences created by members calls).
 */
export const recipientProjections: readonly Projection[] = [
  objectsProjection,
  tenantsProjection,
  preferencesProjection,
  channelDataProjection,
  subscriptionsProjection,
  bulkOperationsProjection,
  audienceMembersProjection,
  createdAudiencesProjection,
];

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const recipientMigrations: Function[] = [
  ObjectsReadModel1763712001000,
  TenantsReadModel1763712001100,
  PreferencesReadModel1763712001200,
  ChannelDataReadModel1763712001300,
  SubscriptionsReadModel1763712001400,
  BulkOperationsReadModel1763712001500,
  AudienceMembersReadModel1763712001600,
  DynamicAudiencesReadModel1763712017100,
  DynamicAudienceTenants1763712021000,
  CreatedAudiencesReadModel1763712098000,
];
