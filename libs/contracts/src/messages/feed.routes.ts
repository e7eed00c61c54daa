import { z } from 'zod';
import { Id } from '../http/ids';
import { arrayParam, PageInfo, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';
import { RecipientId } from '../recipients/common';
import { InsertedAtRange, QueryBoolean, TriggerDataFilter } from './message.routes';

export const FEED_STATUSES = ['unread', 'read', 'unseen', 'seen', 'all'] as const;
export const ARCHIVED_SCOPES = ['exclude', 'include', 'only'] as const;

/** `exclude=entries.archived_at,vars`: dotted paths of fields left out of the answer (3 levels at most). */
const ExcludePaths = z
  .string()
  .max(1024)
  .transform((v) =>
    v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+){0,2}$/, 'a dotted field path, at most 3 levels')).max(50));

export const FeedQuery = PageQuery.extend({
  status: z.enum(FEED_STATUSES).default('all'),
  archived: z.enum(ARCHIVED_SCOPES).default('exclude'),
  source: z.string().min(1).max(255).optional(),
  tenant: Id.optional(),
  has_tenant: QueryBoolean.optional(),
  workflow_categories: arrayParam(z.string().min(1).max(255)).optional(),
  trigger_data: TriggerDataFilter.optional(),
  inserted_at: InsertedAtRange.optional(),
  locale: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'an IETF language tag such as en-US')
    .optional(),
  exclude: ExcludePaths.optional(),
  mode: z.enum(['compact', 'rich']).default('rich'),
});
export type FeedQueryT = z.infer<typeof FeedQuery>;

const Block = z.union([
  z.object({ type: z.enum(['markdown', 'text']), name: z.string(), content: z.string(), rendered: z.string() }),
  z.object({
    type: z.literal('button_set'),
    name: z.string(),
    buttons: z.array(z.object({ name: z.string(), label: z.string(), action: z.string() })),
  }),
]);

export const FeedEntry = z
  .object({
    __typename: z.literal('FeedItem'),
    __cursor: z.string(),
    id: z.string(),
    channel_id: z.uuid(),
    blocks: z.array(Block),
    activities: z.array(z.record(z.string(), z.unknown())).optional(),
    actors: z.array(z.record(z.string(), z.unknown())),
    total_activities: z.number().int().optional(),
    total_actors: z.number().int(),
    data: z.record(z.string(), z.unknown()).nullable(),
    source: z.object({
      __typename: z.literal('NotificationSource'),
      key: z.string(),
      version_id: z.uuid(),
      categories: z.array(z.string()),
    }),
    tenant: z.string().nullable(),
    seen_at: z.string().nullable(),
    read_at: z.string().nullable(),
    interacted_at: z.string().nullable(),
    link_clicked_at: z.string().nullable(),
    clicked_at: z.string().nullable(),
    archived_at: z.string().nullable(),
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'InAppFeedItem' });
export type FeedEntryT = z.infer<typeof FeedEntry>;

export const FeedMeta = z.object({
  __typename: z.literal('FeedMetadata'),
  total_count: z.number().int(),
  unread_count: z.number().int(),
  unseen_count: z.number().int(),
});
export type FeedMetaT = z.infer<typeof FeedMeta>;

export const FeedResponse = z
  .object({ entries: z.array(FeedEntry), meta: FeedMeta, page_info: PageInfo, vars: z.record(z.string(), z.unknown()) })
  .meta({ id: 'UserInAppFeedResponse' });
export type FeedResponseT = z.infer<typeof FeedResponse>;

const FeedPath = z.object({ user_id: RecipientId, channel_id: z.uuid() });

export const getFeedRoute = defineRoute({
  operationId: 'getUserFeed',
  method: 'GET',
  path: '/v1/users/{user_id}/feeds/{channel_id}',
  summary: "A user's in-app feed on a channel, newest first, with exact unread and unseen counts",
  tags: ['Feeds'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 2,
  params: FeedPath,
  query: FeedQuery,
  response: FeedResponse,
});

export const getFeedSettingsRoute = defineRoute({
  operationId: 'getUserFeedSettings',
  method: 'GET',
  path: '/v1/users/{user_id}/feeds/{channel_id}/settings',
  summary: "A user's in-app feed settings on a channel",
  tags: ['Feeds'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 4,
  params: FeedPath,
  response: z.object({ features: z.object({ branding_required: z.boolean() }) }).meta({ id: 'UserInAppFeedSettingsResponse' }),
});
