import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { arrayParam, listOf, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';
import { InlineChannelDataRequest } from './channel-data';
import { IsoDateTime, RecipientId, TimeZone } from './common';
import { InlinePreferenceSetRequest, PreferenceSet } from './preferences';
import { CollectionName } from './refs';

/** Properties of an object: a few known ones, any custom one. */
export const SetObjectBody = z
  .object({
    name: z.string().max(1000).nullable().optional(),
    locale: z.string().max(35).nullable().optional(),
    timezone: TimeZone.nullable().optional(),
    created_at: IsoDateTime.nullable().optional(),
    channel_data: InlineChannelDataRequest.nullable().optional(),
    preferences: InlinePreferenceSetRequest.nullable().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'SetObjectRequest' });
export type SetObjectBodyT = z.infer<typeof SetObjectBody>;

export const ObjectSchema = z
  .object({
    __typename: z.literal('Object'),
    id: z.string(),
    collection: z.string(),
    properties: z.record(z.string(), z.unknown()),
    created_at: z.string().nullable(),
    updated_at: z.string(),
    preferences: z.array(PreferenceSet).optional(),
  })
  .meta({ id: 'Object' });
export type ObjectT = z.infer<typeof ObjectSchema>;

export const ObjectPath = z.object({ collection: CollectionName, id: RecipientId });

// Events

export const ObjectSet = defineEvent(
  'ObjectSet',
  1,
  z.object({
    collection: z.string(),
    object_id: z.string(),
    /** Only the properties this call set; null removes a property. */
    properties: z.record(z.string(), z.unknown()),
    set_at: z.string(),
  }),
);

export const ObjectDeleted = defineEvent(
  'ObjectDeleted',
  1,
  z.object({ collection: z.string(), object_id: z.string(), deleted_at: z.string() }),
);

export const objectEventContracts = [ObjectSet, ObjectDeleted] as const;

// Routes

export const setObjectRoute = defineRoute({
  operationId: 'setObject',
  method: 'PUT',
  path: '/v1/objects/{collection}/{id}',
  summary: 'Create or update an object; the given properties are merged into the existing ones',
  tags: ['Objects'],
  auth: 'secret',
  rateTier: 3,
  params: ObjectPath,
  body: SetObjectBody,
  response: ObjectSchema,
});

export const getObjectRoute = defineRoute({
  operationId: 'getObject',
  method: 'GET',
  path: '/v1/objects/{collection}/{id}',
  summary: 'Get an object',
  tags: ['Objects'],
  auth: 'secret',
  rateTier: 4,
  params: ObjectPath,
  response: ObjectSchema,
});

export const deleteObjectRoute = defineRoute({
  operationId: 'deleteObject',
  method: 'DELETE',
  path: '/v1/objects/{collection}/{id}',
  summary: 'Delete an object, its preferences, channel data and subscriptions',
  tags: ['Objects'],
  auth: 'secret',
  rateTier: 3,
  params: ObjectPath,
  response: null,
});

export const listObjectsRoute = defineRoute({
  operationId: 'listObjects',
  method: 'GET',
  path: '/v1/objects/{collection}',
  summary: 'List the objects of a collection, newest first',
  tags: ['Objects'],
  auth: 'secret',
  rateTier: 4,
  params: z.object({ collection: CollectionName }),
  query: PageQuery.extend({ include: arrayParam(z.enum(['preferences'])).optional() }),
  response: listOf(ObjectSchema).meta({ id: 'ListObjectsResponse' }),
});
