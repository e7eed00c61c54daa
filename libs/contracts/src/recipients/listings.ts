import { defineRoute } from '../http/route';
import { ListMessagesQuery, ListMessagesResponse } from '../messages/message.routes';
import { ObjectPath } from './objects';
import { UserPath } from './users';

/** Messages of a recipient (its schedules are in the schedules contracts). */

const MessagesQuery = ListMessagesQuery;

export const listUserMessagesRoute = defineRoute({
  operationId: 'listMessagesForUser',
  method: 'GET',
  path: '/v1/users/{user_id}/messages',
  summary: 'List messages sent to a user',
  tags: ['Users', 'Messages'],
  auth: 'secret',
  rateTier: 4,
  params: UserPath,
  query: MessagesQuery,
  response: ListMessagesResponse,
});

export const listObjectMessagesRoute = defineRoute({
  operationId: 'listMessagesForObject',
  method: 'GET',
  path: '/v1/objects/{collection}/{id}/messages',
  summary: 'List messages sent to an object',
  tags: ['Objects', 'Messages'],
  auth: 'secret',
  rateTier: 4,
  params: ObjectPath,
  query: MessagesQuery,
  response: ListMessagesResponse,
});
