import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { arrayParam, listOf, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';
import { InlineChannelDataRequest } from './channel-data';
import { IsoDateTime, RecipientId } from './common';
import { ObjectSchema } from './objects';
import { InlinePreferenceSetRequest } from './preferences';
import { CollectionName, RecipientRef, RecipientReference } from './refs';
import { User, UserProperties } from './users';

/** A user named inline: identified (created or updated) before it is subscribed. */
export const InlineIdentifyUser = UserProperties.extend({
  id: RecipientId,
  channel_data: InlineChannelDataRequest.nullable().optional(),
  preferences: InlinePreferenceSetRequest.nullable().optional(),
}).meta({ id: 'InlineIdentifyUserRequest' });
export type InlineIdentifyUserT = z.infer<typeof InlineIdentifyUser>;

/** An object named inline: set before it is subscribed. */
export const InlineIdentifyObject = z
  .object({
    id: RecipientId,
    collection: CollectionName,
    name: z.string().max(1000).nullable().optional(),
    created_at: IsoDateTime.nullable().optional(),
    channel_data: InlineChannelDataRequest.nullable().optional(),
    preferences: InlinePreferenceSetRequest.nullable().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'InlineIdentifyObjectRequest' });
export type InlineIdentifyObjectT = z.infer<typeof InlineIdentifyObject>;

/** A user id, an inline user, or an inline object (it has a collection). */
export const RecipientRequest = z.union([
  RecipientId,
  InlineIdentifyObject,
  // Without this refinement an object with a bad field would pass as a user with a custom `collection`.
  InlineIdentifyUser.refine((v) => !('collection' in v), {
    message: 'an object recipient needs a valid id and collection',
    path: ['collection'],
  }),
]);
export type RecipientRequestT = z.infer<typeof RecipientRequest>;

const SubscriptionProperties = z.record(z.string(), z.unknown()).nullable().optional();

export const UpsertSubscriptionsBody = z
  .strictObject({ recipients: z.array(RecipientRequest).min(1).max(100), properties: SubscriptionProperties })
  .meta({ id: 'UpsertSubscriptionsRequest' });

export const DeleteSubscriptionsBody = z
  .strictObject({ recipients: z.array(RecipientReference).min(1).max(100) })
  .meta({ id: 'DeleteSubscriptionsRequest' });

export const Subscription = z
  .object({
    __typename: z.literal('Subscription'),
    object: ObjectSchema,
    recipient: z.union([User, ObjectSchema]),
    properties: z.record(z.string(), z.unknown()).nullable(),
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Subscription' });
export type SubscriptionT = z.infer<typeof Subscription>;

// Events: on the stream of the object subscribed to.

export const SubscriptionAdded = defineEvent(
  'SubscriptionAdded',
  1,
  z.object({
    collection: z.string(),
    object_id: z.string(),
    recipient: RecipientRef,
    properties: z.record(z.string(), z.unknown()).nullable(),
    added_at: z.string(),
  }),
);

export const SubscriptionRemoved = defineEvent(
  'SubscriptionRemoved',
  1,
  z.object({ collection: z.string(), object_id: z.string(), recipient: RecipientRef, removed_at: z.string() }),
);

export const subscriptionEventContracts = [SubscriptionAdded, SubscriptionRemoved] as const;

// Routes

const ObjectSubsPath = z.object({ collection: CollectionName, object_id: RecipientId });

/** Filters name recipients as a user id or `{collection, id}` (`objects[0][collection]=x&objects[0][id]=y`). */
const RecipientFilter = z.union([RecipientId, z.object({ collection: CollectionName, id: RecipientId })]);
const ObjectFilter = z.object({ collection: CollectionName, id: RecipientId });

/**
 * `a[][id]=x&a[][collection]=y` (how the official client sends a list of objects) parses as
 * `[{id: x}, {collection: y}]`: join fragments whose keys do not overlap back into one object.
 */
export function joinObjectFragments(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const out: unknown[] = [];
  for (const item of value) {
    const last = out[out.length - 1];
    const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (isObject(item) && isObject(last) && Object.keys(item).every((k) => !(k in last))) Object.assign(last, item);
    else out.push(isObject(item) ? { ...item } : item);
  }
  return out;
}
const filterList = <T extends z.ZodType>(item: T) => z.preprocess(joinObjectFragments, arrayParam(item));

export const listObjectSubscriptionsRoute = defineRoute({
  operationId: 'listSubscriptionsForObject',
  method: 'GET',
  path: '/v1/objects/{collection}/{object_id}/subscriptions',
  summary: "List an object's subscribers (mode object, the default) or the objects it subscribes to (mode recipient)",
  tags: ['Subscriptions'],
  auth: 'secret',
  rateTier: 4,
  params: ObjectSubsPath,
  query: PageQuery.extend({
    mode: z.enum(['recipient', 'object']).default('object'),
    recipients: filterList(RecipientFilter).optional(),
    objects: filterList(ObjectFilter).optional(),
    include: arrayParam(z.enum(['preferences'])).optional(),
  }),
  response: listOf(Subscription).meta({ id: 'ListSubscriptionsResponse' }),
});

export const addObjectSubscriptionsRoute = defineRoute({
  operationId: 'addSubscriptionsForObject',
  method: 'POST',
  path: '/v1/objects/{collection}/{object_id}/subscriptions',
  summary: 'Subscribe recipients to an object (identifying inline ones); re-subscribing updates the properties',
  tags: ['Subscriptions'],
  auth: 'secret',
  rateTier: 3,
  params: ObjectSubsPath,
  body: UpsertSubscriptionsBody,
  response: z.array(Subscription),
});

export const deleteObjectSubscriptionsRoute = defineRoute({
  operationId: 'deleteSubscriptionsForObject',
  method: 'DELETE',
  path: '/v1/objects/{collection}/{object_id}/subscriptions',
  summary: 'Unsubscribe recipients from an object; answers the subscriptions removed',
  tags: ['Subscriptions'],
  auth: 'secret',
  rateTier: 3,
  params: ObjectSubsPath,
  body: DeleteSubscriptionsBody,
  response: z.array(Subscription),
});

export const listUserSubscriptionsRoute = defineRoute({
  operationId: 'listSubscriptionsForUser',
  method: 'GET',
  path: '/v1/users/{user_id}/subscriptions',
  summary: 'List the objects a user subscribes to',
  tags: ['Subscriptions'],
  auth: 'secret',
  rateTier: 4,
  params: z.object({ user_id: RecipientId }),
  query: PageQuery.extend({ objects: filterList(RecipientFilter).optional(), include: arrayParam(z.enum(['preferences'])).optional() }),
  response: listOf(Subscription),
});
