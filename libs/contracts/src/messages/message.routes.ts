import { z } from 'zod';
import { Id } from '../http/ids';
import { arrayParam, PageInfo, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';
import { IsoDateTime } from '../recipients/common';
import { RecipientReference } from '../recipients/refs';
import { BulkOperation } from '../recipients/bulk-operations';

export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'delivery_attempted', 'undelivered', 'not_sent', 'bounced'] as const;
export const ENGAGEMENT_FILTERS = ['seen', 'unseen', 'read', 'unread', 'archived', 'unarchived', 'link_clicked', 'interacted'] as const;
/** Ids a `message_ids` filter or a batch request may name. */
export const MESSAGE_IDS_MAX = 50;

/** `true`/`false` as query strings (z.coerce.boolean would read "false" as true). */
export const QueryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/**
 * Trigger data filtering: a JSON object whose top-level keys must equal the message's trigger
 * data (strings, numbers, booleans or null; nested values are not filterable).
 */
export const TriggerDataFilter = z
  .string()
  .max(4096)
  .transform((text, ctx) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
    for (const [key, v] of Object.entries(value)) {
      if (v !== null && typeof v === 'object') {
        ctx.addIssue({ code: 'custom', message: `key ${key}: only strings, numbers, booleans and null are filterable` });
        return z.NEVER;
      }
    }
    return value as Record<string, string | number | boolean | null>;
  });

/** `inserted_at.gte=...` (and gt, lt, lte) arrive as one nested object. */
export const InsertedAtRange = z.strictObject({
  gt: IsoDateTime.optional(),
  gte: IsoDateTime.optional(),
  lt: IsoDateTime.optional(),
  lte: IsoDateTime.optional(),
});

const ids = arrayParam(Id).pipe(z.array(z.string()).max(MESSAGE_IDS_MAX, `at most ${MESSAGE_IDS_MAX} ids`));

export const ListMessagesQuery = PageQuery.extend({
  tenant: Id.optional(),
  channel_id: z.uuid().optional(),
  status: arrayParam(z.enum(DELIVERY_STATUSES)).optional(),
  engagement_status: arrayParam(z.enum(ENGAGEMENT_FILTERS)).optional(),
  message_ids: ids.optional(),
  workflow_categories: arrayParam(z.string().min(1).max(255)).optional(),
  source: z.string().min(1).max(255).optional(),
  workflow_run_id: z.uuid().optional(),
  workflow_recipient_run_id: z.uuid().optional(),
  trigger_data: TriggerDataFilter.optional(),
  inserted_at: InsertedAtRange.optional(),
});
export type ListMessagesQueryT = z.infer<typeof ListMessagesQuery>;

export const NotificationSource = z
  .object({
    __typename: z.literal('NotificationSource'),
    key: z.string(),
    /** The workflow version's id (a uuid derived from its content hash; ADR 0115). */
    version_id: z.uuid(),
    categories: z.array(z.string()),
    step_ref: z.string().optional(),
    workflow_run_id: z.uuid().optional(),
    workflow_recipient_run_id: z.uuid().optional(),
  })
  .meta({ id: 'NotificationSource' });

/** The channel a message went over, as the message listings show it. */
export const MessageChannelSummary = z
  .object({
    id: z.uuid(),
    key: z.string().nullable(),
    name: z.string().nullable(),
    type: z.string(),
    provider: z.string(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'MessageChannelSummary' });

export const Message = z
  .object({
    __typename: z.literal('Message'),
    id: z.string(),
    channel_id: z.uuid(),
    channel: MessageChannelSummary,
    recipient: RecipientReference,
    actors: z.array(RecipientReference),
    workflow: z.string(),
    tenant: z.string().nullable(),
    status: z.enum(DELIVERY_STATUSES),
    engagement_statuses: z.array(z.enum(['seen', 'read', 'interacted', 'link_clicked', 'archived'])),
    seen_at: z.string().nullable(),
    read_at: z.string().nullable(),
    interacted_at: z.string().nullable(),
    link_clicked_at: z.string().nullable(),
    clicked_at: z.string().nullable(),
    archived_at: z.string().nullable(),
    scheduled_at: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    recipient_snapshot: z.record(z.string(), z.unknown()).nullable(),
    source: NotificationSource,
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Message' });
export type MessageT = z.infer<typeof Message>;

export const ListMessagesResponse = z.object({ items: z.array(Message), page_info: PageInfo }).meta({ id: 'ListMessagesResponse' });

export const MessageContents = z
  .object({
    __typename: z.literal('MessageContent'),
    message_id: z.string(),
    data: z.record(z.string(), z.unknown()),
    inserted_at: z.string(),
  })
  .meta({ id: 'MessageContents' });
export type MessageContentsT = z.infer<typeof MessageContents>;

export const MessageEventEntry = z
  .object({
    __typename: z.literal('MessageEvent'),
    id: z.string(),
    type: z.string(),
    recipient: RecipientReference,
    data: z.record(z.string(), z.unknown()).nullable(),
    inserted_at: z.string(),
  })
  .meta({ id: 'MessageEvent' });
export type MessageEventEntryT = z.infer<typeof MessageEventEntry>;

export const MessageDeliveryLog = z
  .object({
    __typename: z.literal('MessageDeliveryLog'),
    id: z.string(),
    environment_id: z.uuid(),
    service_name: z.string(),
    request: z.object({
      method: z.string(),
      host: z.string(),
      path: z.string(),
      query: z.string().nullable(),
      headers: z.record(z.string(), z.unknown()).nullable(),
      /** Absent when the request had none. */
      body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    }),
    /** `status` and `body` are absent when the attempt got no answer. */
    response: z.object({
      status: z.number().int().optional(),
      headers: z.record(z.string(), z.unknown()).nullable(),
      body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    }),
    inserted_at: z.string(),
  })
  .meta({ id: 'MessageDeliveryLog' });
export type MessageDeliveryLogT = z.infer<typeof MessageDeliveryLog>;

export const MessageActivity = z
  .object({
    __typename: z.literal('Activity'),
    id: z.string(),
    actor: z.record(z.string(), z.unknown()).nullable(),
    recipient: z.record(z.string(), z.unknown()).nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Activity' });
export type MessageActivityT = z.infer<typeof MessageActivity>;

const MessagePath = z.object({ message_id: Id });
const PagePath = { params: MessagePath, query: PageQuery };

export const listMessagesRoute = defineRoute({
  operationId: 'listMessages',
  method: 'GET',
  path: '/v1/messages',
  summary: 'List messages, newest first, by channel, status, engagement, workflow, tenant, trigger data and time',
  tags: ['Messages'],
  auth: 'secret',
  rateTier: 4,
  query: ListMessagesQuery,
  response: ListMessagesResponse,
});

export const getMessageRoute = defineRoute({
  operationId: 'getMessage',
  method: 'GET',
  path: '/v1/messages/{message_id}',
  summary: 'Get a message',
  tags: ['Messages'],
  auth: 'secret',
  rateTier: 4,
  params: MessagePath,
  response: Message,
});

export const getMessageContentRoute = defineRoute({
  operationId: 'getMessageContent',
  method: 'GET',
  path: '/v1/messages/{message_id}/content',
  summary: "Get a message's rendered content",
  tags: ['Messages'],
  auth: 'secret',
  rateTier: 4,
  params: MessagePath,
  response: MessageContents,
});

export const batchGetMessageContentRoute = defineRoute({
  operationId: 'batchGetMessageContent',
  method: 'GET',
  path: '/v1/messages/batch/content',
  summary: 'Get the rendered content of up to 50 messages',
  tags: ['Messages'],
  auth: 'secret',
  rateTier: 4,
  query: z.object({ message_ids: ids.pipe(z.array(z.string()).min(1, 'at least one id')) }),
  response: z.array(MessageContents).meta({ id: 'BatchGetMessageContentsResponse' }),
});

export const listMessageEventsRoute = defineRoute({
  operationId: 'listMessageEvents',
  method: 'GET',
  path: '/v1/messages/{message_id}/events',
  summary: "List a message's delivery and engagement events, newest first",
  tags: ['Messages'],
  auth: 'secret',
  rateTier: 3,
  ...PagePath,
  response: z.object({ items: z.array(MessageEventEntry), page_info: PageInfo }).meta({ id: 'ListMessageEventsResponse' }),
});

export const listMessageDeliveryLogsRoute = defineRoute({
  operationId: 'listMessageDeliveryLogs',
  method: 'GET',
  path: '/v1/messages/{message_id}/delivery_logs',
  summary: "List a message's delivery attempts (request and response), newest first",
  tags: ['Messages'],
  auth: 'secret',
  rateTier: 3,
  ...PagePath,
  response: z.object({ items: z.array(MessageDeliveryLog), page_info: PageInfo }).meta({ id: 'ListMessageDeliveryLogsResponse' }),
});

export const listMessageActivitiesRoute = defineRoute({
  operationId: 'listMessageActivities',
  method: 'GET',
  path: '/v1/messages/{message_id}/activities',
  summary: "List a message's activities (one per trigger batched into it), newest first",
  tags: ['Messages'],
  auth: 'secret',
  rateTier: 4,
  params: MessagePath,
  query: PageQuery.extend({ trigger_data: TriggerDataFilter.optional() }),
  response: z.object({ items: z.array(MessageActivity), page_info: PageInfo }).meta({ id: 'ListActivitiesResponse' }),
});

// Engagement

export const MESSAGE_ENGAGEMENT_ACTIONS = ['seen', 'unseen', 'read', 'unread', 'archived', 'unarchived', 'interacted'] as const;
export type MessageEngagementActionT = (typeof MESSAGE_ENGAGEMENT_ACTIONS)[number];

const Metadata = z.record(z.string(), z.unknown());
/** Engagement bodies are ids and a little metadata, sent from browsers: far below the service-wide limit. */
const ENGAGEMENT_BODY_LIMIT = 64 * 1024;

const engagementRoute = (operationId: string, method: 'PUT' | 'DELETE', path: string, summary: string) =>
  defineRoute({
    operationId,
    method,
    path,
    summary,
    tags: ['Messages'],
    auth: 'public',
    userScope: 'handler',
    rateTier: 2,
    params: MessagePath,
    response: Message,
  });

export const markMessageSeenRoute = engagementRoute('markMessageAsSeen', 'PUT', '/v1/messages/{message_id}/seen', 'Mark a message as seen');
export const markMessageUnseenRoute = engagementRoute(
  'markMessageAsUnseen',
  'DELETE',
  '/v1/messages/{message_id}/seen',
  'Mark a message as unseen',
);
export const markMessageUnseenAltRoute = engagementRoute(
  'markMessageAsUnseenAlt',
  'DELETE',
  '/v1/messages/{message_id}/unseen',
  'Mark a message as unseen',
);
export const markMessageReadRoute = engagementRoute(
  'markMessageAsRead',
  'PUT',
  '/v1/messages/{message_id}/read',
  'Mark a message as read (and seen)',
);
export const markMessageUnreadRoute = engagementRoute(
  'markMessageAsUnread',
  'DELETE',
  '/v1/messages/{message_id}/read',
  'Mark a message as unread',
);
export const markMessageUnreadAltRoute = engagementRoute(
  'markMessageAsUnreadAlt',
  'DELETE',
  '/v1/messages/{message_id}/unread',
  'Mark a message as unread',
);
export const archiveMessageRoute = engagementRoute('archiveMessage', 'PUT', '/v1/messages/{message_id}/archived', 'Archive a message');
export const unarchiveMessageRoute = engagementRoute(
  'unarchiveMessage',
  'DELETE',
  '/v1/messages/{message_id}/archived',
  'Unarchive a message',
);
export const unarchiveMessageAltRoute = engagementRoute(
  'unarchiveMessageAlt',
  'DELETE',
  '/v1/messages/{message_id}/unarchived',
  'Unarchive a message',
);

export const markMessageInteractedRoute = defineRoute({
  operationId: 'markMessageAsInteracted',
  method: 'PUT',
  path: '/v1/messages/{message_id}/interacted',
  summary: 'Record an interaction with a message (also marks it read and seen)',
  tags: ['Messages'],
  auth: 'public',
  userScope: 'handler',
  rateTier: 2,
  params: MessagePath,
  body: z.strictObject({ metadata: Metadata.nullable().optional() }).optional(),
  bodyLimit: ENGAGEMENT_BODY_LIMIT,
  response: Message,
});

const BatchIds = z.array(Id).min(1).max(MESSAGE_IDS_MAX, `at most ${MESSAGE_IDS_MAX} ids`);
export const BatchMessagesBody = z.strictObject({ message_ids: BatchIds }).meta({ id: 'BatchMessagesStatusRequest' });
export const BatchInteractedBody = z
  .strictObject({ message_ids: BatchIds, metadata: Metadata.nullable().optional() })
  .meta({ id: 'BatchMessagesInteractedRequest' });

const batchRoute = <B extends z.ZodType>(action: MessageEngagementActionT, body: B) =>
  defineRoute({
    operationId: `batchMark${action[0].toUpperCase()}${action.slice(1)}`,
    method: 'POST',
    path: `/v1/messages/batch/${action}`,
    summary: `Mark up to ${MESSAGE_IDS_MAX} messages ${action}; answers the messages`,
    tags: ['Messages'],
    auth: 'public',
    // A user token reaches only its user's messages (MessageAccess).
    userScope: 'handler',
    rateTier: 3,
    body,
    bodyLimit: ENGAGEMENT_BODY_LIMIT,
    response: z.array(Message),
  });

export const batchMessageRoutes = {
  seen: batchRoute('seen', BatchMessagesBody),
  unseen: batchRoute('unseen', BatchMessagesBody),
  read: batchRoute('read', BatchMessagesBody),
  unread: batchRoute('unread', BatchMessagesBody),
  archived: batchRoute('archived', BatchMessagesBody),
  unarchived: batchRoute('unarchived', BatchMessagesBody),
  interacted: batchRoute('interacted', BatchInteractedBody),
} as const;

/** Actions of the channel-wide bulk endpoint; `archive`/`unarchive` are the reference's aliases. */
export const CHANNEL_BULK_ACTIONS = [
  'seen',
  'unseen',
  'read',
  'unread',
  'archived',
  'unarchived',
  'interacted',
  'archive',
  'unarchive',
] as const;

export const BulkChannelMessagesBody = z
  .strictObject({
    archived: z.enum(['exclude', 'include', 'only']).optional(),
    delivery_status: z.enum(DELIVERY_STATUSES).optional(),
    engagement_status: z.enum(ENGAGEMENT_FILTERS).optional(),
    has_tenant: z.boolean().optional(),
    newer_than: IsoDateTime.optional(),
    older_than: IsoDateTime.optional(),
    recipient_ids: z.array(Id).max(1000).optional(),
    /** The browser client's name for recipient_ids. */
    user_ids: z.array(Id).max(1000).optional(),
    tenants: z.array(Id).max(100).optional(),
    trigger_data: TriggerDataFilter.optional(),
    workflows: z.array(z.string().min(1).max(255)).max(100).optional(),
  })
  .meta({ id: 'BulkUpdateMessagesForChannelRequest' });
export type BulkChannelMessagesBodyT = z.infer<typeof BulkChannelMessagesBody>;

export const bulkChannelMessagesRoute = defineRoute({
  operationId: 'bulkUpdateChannelMessages',
  method: 'POST',
  path: '/v1/channels/{channel_id}/messages/bulk/{action}',
  summary: 'Change the engagement of every message of a channel that matches the filters, in the background',
  tags: ['Messages', 'Bulk operations'],
  auth: 'public',
  userScope: { body: ['user_ids', 'recipient_ids'] },
  rateTier: 2,
  params: z.object({ channel_id: z.uuid(), action: z.enum(CHANNEL_BULK_ACTIONS) }),
  body: BulkChannelMessagesBody.optional(),
  response: BulkOperation,
});

export const trackedLinkRoute = defineRoute({
  operationId: 'followTrackedLink',
  method: 'GET',
  path: '/v1/links/{token}',
  summary: 'Follow a tracked link of a message: records link_clicked and redirects to the link',
  tags: ['Messages'],
  auth: 'none',
  rateTier: 3,
  params: z.object({ token: z.string().min(1).max(4096) }),
  status: 302,
  response: null,
});

export const trackedOpenRoute = defineRoute({
  operationId: 'recordTrackedOpen',
  method: 'GET',
  path: '/v1/opens/{token}',
  summary: "An email's open-tracking pixel: records the message read and answers a 1x1 GIF",
  tags: ['Messages'],
  auth: 'none',
  rateTier: 3,
  params: z.object({ token: z.string().min(1).max(4096) }),
  status: 200,
  produces: 'image/gif',
  response: z.string(),
});
