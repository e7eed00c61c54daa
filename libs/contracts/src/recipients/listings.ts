import { z } from 'zod';
import { RecipientId } from './common';
import { PageInfo, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';
import { ListMessagesQuery, ListMessagesResponse } from '../messages/message.routes';
import { ObjectPath } from './objects';
import { UserPath } from './users';

/**
 * Messages and schedules of a recipient. The schedules read model belongs to the scheduling
 * work; until then that listing answers an empty page of the documented shape.
 */

export const ScheduleSummary = z.record(z.string(), z.unknown()).meta({ id: 'Schedule' });
export const ListSchedulesResponse = z.object({ entries: z.array(ScheduleSummary), page_info: PageInfo }).meta({ id: 'ListSchedulesResponse' });

const MessagesQuery = ListMessagesQuery;
const SchedulesQuery = PageQuery.extend({ tenant: RecipientId.optional(), workflow: z.string().max(255).optional() });

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

export const listUserSchedulesRoute = defineRoute({
  operationId: 'listUserSchedules',
  method: 'GET',
  path: '/v1/users/{user_id}/schedules',
  summary: "List a user's schedules",
  tags: ['Users', 'Schedules'],
  auth: 'secret',
  rateTier: 4,
  params: UserPath,
  query: SchedulesQuery,
  response: ListSchedulesResponse,
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

export const listObjectSchedulesRoute = defineRoute({
  operationId: 'listObjectSchedules',
  method: 'GET',
  path: '/v1/objects/{collection}/{id}/schedules',
  summary: "List an object's schedules",
  tags: ['Objects', 'Schedules'],
  auth: 'secret',
  rateTier: 4,
  params: ObjectPath,
  query: SchedulesQuery,
  response: ListSchedulesResponse,
});

