import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { arrayParam } from '../http/pagination';
import { defineRoute } from '../http/route';
import { RecipientId } from './common';
import { InlineIdentifyObject, InlineIdentifyUser, RecipientRequest } from './subscriptions';
import { CollectionName, RecipientReference } from './refs';
import { PreferenceSetRequest } from './preferences';
import { SetTenantBody } from './tenants';

/** Items one bulk request may carry; more is refused before anything is written. */
export const BULK_MAX_ITEMS = 1000;
/**
 * Items one operation may record: a channel-wide message operation resolves its filters to the
 * matching message ids when it is created (ADR 0072), up to this many.
 */
export const BULK_MAX_RECORDED_ITEMS = 10_000;

const items = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(BULK_MAX_ITEMS, `at most ${BULK_MAX_ITEMS} items per request`);

export const BulkOperationKind = z.enum([
  'users.identify',
  'users.delete',
  'users.preferences',
  'objects.set',
  'objects.delete',
  'objects.subscriptions.add',
  'objects.subscriptions.delete',
  'tenants.set',
  'tenants.delete',
  'messages.seen',
  'messages.unseen',
  'messages.read',
  'messages.unread',
  'messages.archived',
  'messages.unarchived',
  'messages.interacted',
  'schedules.create',
]);
export type BulkOperationKindT = z.infer<typeof BulkOperationKind>;

export const BulkObjectItem = InlineIdentifyObject.omit({ collection: true });
export const BulkTenantItem = z.union([RecipientId, SetTenantBody.extend({ id: RecipientId })]);
export const BulkPreferenceSet = PreferenceSetRequest.omit({ __persistence_strategy__: true }).extend({ id: RecipientId.optional() });
const BulkSubscriptionAdd = z.strictObject({
  id: RecipientId,
  recipients: z.array(RecipientRequest).min(1).max(100),
  properties: z.record(z.string(), z.unknown()).nullable().optional(),
});
const BulkSubscriptionDelete = z.strictObject({ id: RecipientId, recipients: z.array(RecipientReference).min(1).max(100) });

export const BulkIdentifyUsersBody = z.strictObject({ users: items(InlineIdentifyUser) }).meta({ id: 'BulkIdentifyUsersRequest' });
export const BulkDeleteUsersBody = z.strictObject({ user_ids: items(RecipientId) }).meta({ id: 'BulkDeleteUsersRequest' });
export const BulkSetUserPreferencesBody = z
  .strictObject({ user_ids: items(RecipientId), preferences: BulkPreferenceSet })
  .meta({ id: 'BulkSetUserPreferencesRequest' });
export const BulkSetObjectsBody = z.strictObject({ objects: items(BulkObjectItem) }).meta({ id: 'BulkSetObjectsRequest' });
export const BulkDeleteObjectsBody = z.strictObject({ object_ids: items(RecipientId) }).meta({ id: 'BulkDeleteObjectsRequest' });
export const BulkAddSubscriptionsBody = z
  .strictObject({ subscriptions: items(BulkSubscriptionAdd) })
  .meta({ id: 'BulkUpsertSubscriptionsRequest' });
export const BulkDeleteSubscriptionsBody = z
  .strictObject({ subscriptions: items(BulkSubscriptionDelete) })
  .meta({ id: 'BulkDeleteSubscriptionsRequest' });
export const BulkSetTenantsBody = z.strictObject({ tenants: items(BulkTenantItem) }).meta({ id: 'BulkSetTenantsRequest' });
export const BulkDeleteTenantsQuery = z.object({ tenant_ids: arrayParam(RecipientId).pipe(items(RecipientId)) });

export const BulkOperationStatus = z.enum(['queued', 'processing', 'completed', 'failed']);

export const BulkErrorItem = z.object({ id: z.string(), collection: z.string().nullable().optional() });

export const BulkOperation = z
  .object({
    __typename: z.literal('BulkOperation'),
    id: z.uuid(),
    name: z.string(),
    status: BulkOperationStatus,
    estimated_total_rows: z.number().int(),
    processed_rows: z.number().int(),
    success_count: z.number().int(),
    error_count: z.number().int(),
    error_items: z.array(BulkErrorItem),
    /** Absolute URL of the operation (PUBLIC_URL or the request's origin; ADR 0116). */
    progress_path: z.url(),
    inserted_at: z.string(),
    updated_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    failed_at: z.string().nullable(),
  })
  .meta({ id: 'BulkOperation' });
export type BulkOperationT = z.infer<typeof BulkOperation>;

// Events: on the operation's own stream.

export const BulkOperationCreated = defineEvent(
  'BulkOperationCreated',
  1,
  z.object({
    bulk_operation_id: z.uuid(),
    kind: BulkOperationKind,
    name: z.string(),
    /** The collection for object operations. */
    collection: z.string().nullable(),
    /** One entry per unit of work, validated by the request contract. */
    items: z.array(z.unknown()).max(BULK_MAX_RECORDED_ITEMS),
    created_at: z.string(),
  }),
);

export const BulkOperationProgressed = defineEvent(
  'BulkOperationProgressed',
  1,
  z.object({
    bulk_operation_id: z.uuid(),
    /** Items [0, processed_rows) are done; a restart resumes here. */
    processed_rows: z.number().int(),
    success_count: z.number().int(),
    error_count: z.number().int(),
    /** The items of this chunk that failed, and why. */
    error_items: z.array(BulkErrorItem.extend({ index: z.number().int(), reason: z.string() })),
    progressed_at: z.string(),
  }),
);

export const BulkOperationCompleted = defineEvent(
  'BulkOperationCompleted',
  1,
  z.object({ bulk_operation_id: z.uuid(), status: z.enum(['completed', 'failed']), completed_at: z.string() }),
);

export const bulkOperationEventContracts = [BulkOperationCreated, BulkOperationProgressed, BulkOperationCompleted] as const;

// Routes

const bulkRoute = <B extends z.ZodType, P extends z.ZodType = z.ZodNever>(
  operationId: string,
  path: string,
  summary: string,
  tags: string[],
  body: B,
  params?: P,
) =>
  defineRoute<P, z.ZodNever, B, typeof BulkOperation>({
    operationId,
    method: 'POST',
    path,
    summary,
    tags,
    auth: 'secret',
    rateTier: 1,
    params,
    body,
    response: BulkOperation,
  });

const CollectionPath = z.object({ collection: CollectionName });

export const bulkIdentifyUsersRoute = bulkRoute(
  'bulkIdentifyUsers',
  '/v1/users/bulk/identify',
  'Identify up to 1,000 users in the background',
  ['Users', 'Bulk operations'],
  BulkIdentifyUsersBody,
);
export const bulkDeleteUsersRoute = bulkRoute(
  'bulkDeleteUsers',
  '/v1/users/bulk/delete',
  'Delete up to 1,000 users in the background',
  ['Users', 'Bulk operations'],
  BulkDeleteUsersBody,
);
export const bulkSetUserPreferencesRoute = bulkRoute(
  'bulkSetUserPreferences',
  '/v1/users/bulk/preferences',
  'Set one preference set for up to 1,000 users in the background',
  ['Users', 'Bulk operations'],
  BulkSetUserPreferencesBody,
);
export const bulkSetObjectsRoute = bulkRoute(
  'bulkSetObjects',
  '/v1/objects/{collection}/bulk/set',
  'Set up to 1,000 objects in the background',
  ['Objects', 'Bulk operations'],
  BulkSetObjectsBody,
  CollectionPath,
);
export const bulkDeleteObjectsRoute = bulkRoute(
  'bulkDeleteObjects',
  '/v1/objects/{collection}/bulk/delete',
  'Delete up to 1,000 objects in the background',
  ['Objects', 'Bulk operations'],
  BulkDeleteObjectsBody,
  CollectionPath,
);
export const bulkAddSubscriptionsRoute = bulkRoute(
  'bulkAddSubscriptions',
  '/v1/objects/{collection}/bulk/subscriptions/add',
  'Add subscriptions to up to 1,000 objects in the background',
  ['Subscriptions', 'Bulk operations'],
  BulkAddSubscriptionsBody,
  CollectionPath,
);
export const bulkDeleteSubscriptionsRoute = bulkRoute(
  'bulkDeleteSubscriptions',
  '/v1/objects/{collection}/bulk/subscriptions/delete',
  'Remove subscriptions from up to 1,000 objects in the background',
  ['Subscriptions', 'Bulk operations'],
  BulkDeleteSubscriptionsBody,
  CollectionPath,
);
export const bulkSetTenantsRoute = bulkRoute(
  'bulkSetTenants',
  '/v1/tenants/bulk/set',
  'Set up to 1,000 tenants in the background',
  ['Tenants', 'Bulk operations'],
  BulkSetTenantsBody,
);

export const bulkDeleteTenantsRoute = defineRoute({
  operationId: 'bulkDeleteTenants',
  method: 'POST',
  path: '/v1/tenants/bulk/delete',
  summary: 'Delete up to 1,000 tenants in the background',
  tags: ['Tenants', 'Bulk operations'],
  auth: 'secret',
  rateTier: 1,
  query: BulkDeleteTenantsQuery,
  response: BulkOperation,
});

export const getBulkOperationRoute = defineRoute({
  operationId: 'getBulkOperation',
  method: 'GET',
  path: '/v1/bulk_operations/{id}',
  summary: 'Get a bulk operation and its progress',
  tags: ['Bulk operations'],
  auth: 'secret',
  rateTier: 4,
  params: z.object({ id: z.uuid() }),
  response: BulkOperation,
});
