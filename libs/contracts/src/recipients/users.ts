import { z } from 'zod';
import { defineRoute } from '../http/route';
import { arrayParam, listOf, PageQuery } from '../http/pagination';
import { defineEvent } from '../events/define-event';
import { IsoDateTime, RecipientId, TimeZone } from './common';

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
  channel_data: z.record(z.string(), z.unknown()).nullable().optional(),
  preferences: z.record(z.string(), z.unknown()).nullable().optional(),
}).meta({ id: 'IdentifyUserRequest' });

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
);

export const UserDeleted = defineEvent('UserDeleted', 1, z.object({ user_id: z.string(), deleted_at: z.string() }));

export const userEventContracts = [UserIdentified, UserDeleted] as const;

// Routes

export const identifyUserRoute = defineRoute({
  operationId: 'identifyUser',
  method: 'PUT',
  path: '/v1/users/{user_id}',
  summary: 'Create or update a user; the given properties are merged into the existing ones',
  tags: ['Users'],
  auth: 'public',
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
