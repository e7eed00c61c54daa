import { z } from 'zod';
import { PageInfo, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';
import { ObjectPath } from './objects';
import { UserPath } from './users';

/**
 * Messages and schedules of a recipient. Their read models belong to the messaging and
 * scheduling work; until then these listings answer an empty page of the documented shape.
 */
export const MessageSummary = z.record(z.string(), z.unknown()).meta({ id: 'Message' });
export const ListMessagesResponse = z.object({ items: z.array(MessageSummary), page_info: PageInfo }).meta({ id: 'ListMessagesResponse' });

export const ScheduleSummary = z.record(z.string(), z.unknown()).meta({ id: 'Schedule' });
export const ListSchedulesResponse = z.object({ entries: z.array(ScheduleSummary), page_info: PageInfo }).meta({ id: 'ListSchedulesResponse' });

const MessagesQuery = PageQuery.extend({
  tenant: z.string().max(255).optional(),
  channel_id: z.uuid().optional(),
  source: z.string().max(255).optional(),
  workflow_run_id: z.uuid().optional(),
  workflow_recipient_run_id: z.uuid().optional(),
});
const SchedulesQuery = PageQuery.extend({ tenant: z.string().max(255).optional(), workflow: z.string().max(255).optional() });

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

