import { z } from 'zod';
import { defineRoute } from '../http/route';
import { arrayParam, listOf, PageQuery } from '../http/pagination';
import { defineEvent } from '../events/define-event';
import { InlineChannelDataRequest } from './channel-data';
import { IsoDateTime, RecipientId, TimeZone } from './common';
import { InlinePreferenceSetRequest, PreferenceSet, PreferenceSetData } from './preferences';

/** The standard user properties; any other property is kept as a custom one. */
export const UserProperties = z
  .object({
    name: z.string().max(1000).nullable().optional(),
    email: z.string().max(1000).nullable().optional(),
    phone_number: z.string().max(100).nullable().optional(),
    avatar: z.string().max(2000).nullable().optional(),
    locale: z.string().max(35).nullable().optional(),
    timezone: TimeZone.nullable().optional(),
    created_at: IsoDateTime.nullable().optional(),
  })
  .catchall(z.unknown());

export const IdentifyUserBody = UserProperties.extend({
  /** Applied to the user's channel data, channel by channel. */
  channel_data: InlineChannelDataRequest.nullable().optional(),
  /** Applied to the user's preference sets; merged unless a set asks for replace. */
  preferences: InlinePreferenceSetRequest.nullable().optional(),
}).meta({ id: 'IdentifyUserRequest' });
export type IdentifyUserBodyT = z.infer<typeof IdentifyUserBody>;

export const User = z
  .object({
    __typename: z.literal('User'),
    id: z.string(),
    name: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    phone_number: z.string().nullable().optional(),
    avatar: z.string().nullable().optional(),
    locale: z.string().nullable().optional(),
    timezone: z.string().nullable().optional(),
    created_at: z.string().nullable(),
    updated_at: z.string(),
    /** With `include[]=preferences`. */
    preferences: z.array(PreferenceSet).optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'User' });
export type UserT = z.infer<typeof User>;

export const UserPath = z.object({ user_id: RecipientId });

// Events

export const UserIdentified = defineEvent(
  'UserIdentified',
  1,
  z.object({
    user_id: z.string(),
    /** Only the properties this identify set; null removes a property. */
    properties: z.record(z.string(), z.unknown()),
    identified_at: z.string(),
  }),
  { personal: { subject: (d) => d.user_id, fields: ['properties'] } },
);

export const UserDeleted = defineEvent('UserDeleted', 1, z.object({ user_id: z.string(), deleted_at: z.string() }));

/**
 * Recorded on the target's stream: what moved from `from_user_id`. The source's own stream
 * then records UserDeleted; read models move its subscriptions (and later messages) on this.
 */
export const UserMerged = defineEvent(
  'UserMerged',
  1,
  z.object({
    user_id: z.string(),
    from_user_id: z.string(),
    /** Sets the target did not have, as they were on the source. */
    preference_sets: z.array(z.object({ preference_set_id: z.string(), preferences: PreferenceSetData })),
    /** Channel data the target did not have, as it was on the source. */
    channel_data: z.array(
      z.object({ channel_id: z.string(), channel_type: z.string(), provider: z.string(), data: z.record(z.string(), z.unknown()) }),
    ),
    merged_at: z.string(),
  }),
  { personal: { subject: (d) => d.user_id, fields: ['channel_data'] } },
);

/**
 * The user's personal data is erased (ADR 0144): their key is destroyed, so the personal fields of
 * their events read as erased, and read models drop what they kept of them (their messages).
 * Recorded after UserDeleted by `DELETE /v1/users/{id}`, bulk deletes and `notify recipients
 * erase` (with the operator's reason); who asked is in the event's metadata (`actor`).
 */
export const UserErased = defineEvent(
  'UserErased',
  1,
  z.object({ user_id: z.string(), reason: z.string().nullable(), erased_at: z.string() }),
);

export const userEventContracts = [UserIdentified, UserDeleted, UserErased, UserMerged] as const;

export const MergeUserBody = z.strictObject({ from_user_id: RecipientId }).meta({ id: 'MergeUserRequest' });

// Routes

export const identifyUserRoute = defineRoute({
  operationId: 'identifyUser',
  method: 'PUT',
  path: '/v1/users/{user_id}',
  summary: 'Create or update a user; the given properties are merged into the existing ones',
  tags: ['Users'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 3,
  params: UserPath,
  body: IdentifyUserBody,
  response: User,
});

export const getUserRoute = defineRoute({
  operationId: 'getUser',
  method: 'GET',
  path: '/v1/users/{user_id}',
  summary: 'Get a user',
  tags: ['Users'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 4,
  params: UserPath,
  response: User,
});

export const deleteUserRoute = defineRoute({
  operationId: 'deleteUser',
  method: 'DELETE',
  path: '/v1/users/{user_id}',
  summary: 'Delete a user',
  tags: ['Users'],
  auth: 'secret',
  rateTier: 2,
  params: UserPath,
  response: null,
});

export const listUsersRoute = defineRoute({
  operationId: 'listUsers',
  method: 'GET',
  path: '/v1/users',
  summary: 'List users, newest first',
  tags: ['Users'],
  auth: 'secret',
  rateTier: 4,
  query: PageQuery.extend({ include: arrayParam(z.enum(['preferences'])).optional() }),
  response: listOf(User).meta({ id: 'ListUsersResponse' }),
});

export const mergeUserRoute = defineRoute({
  operationId: 'mergeUser',
  method: 'POST',
  path: '/v1/users/{user_id}/merge',
  summary: 'Merge another user into this one: its preferences, channel data and subscriptions move here and it is deleted',
  tags: ['Users'],
  auth: 'secret',
  rateTier: 2,
  params: UserPath,
  body: MergeUserBody,
  // One id: a larger body is not a merge request.
  bodyLimit: 4 * 1024,
  response: User,
});
