import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { uniqueStepRefs, WorkflowStep } from '../config/workflow-steps';
import { GoalAttachment } from '../goals/goals';
import {
  EnvironmentQuery,
  MgmtPageQuery,
  mgmtListOf,
  QueryFlag,
  readOnlyEcho,
  ResourceError,
  ResourceKey,
  WriteOptions,
} from '../config/mgmt';

/**
 * Broadcasts (ADR 0172): a one-off send of channel, branch and delay steps to every member of an
 * audience, or to every user of the environment when no audience is named.
 */

/** The step types a broadcast may hold (the reference: "channel, branch, and delay steps"). */
export const BROADCAST_STEP_TYPES = ['channel', 'branch', 'delay'] as const;

/** The lifecycle as recorded; `status` answers it in the reference's three values, `send_status` in full. */
export const BROADCAST_SEND_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'canceled'] as const;
export const BroadcastSendStatus = z.enum(BROADCAST_SEND_STATUSES);
export type BroadcastSendStatusT = z.infer<typeof BroadcastSendStatus>;

const BroadcastSettings = z.strictObject({ is_commercial: z.boolean().optional(), override_preferences: z.boolean().optional() });

export const BroadcastRequest = z
  .strictObject({
    name: z.string().min(1, 'is required').max(255, 'must be at most 255 characters'),
    description: z.string().max(280, 'must be at most 280 characters').nullable().optional(),
    steps: z.array(WorkflowStep).max(100, 'at most 100 top-level steps'),
    target_audience_key: z.string().min(1).max(255).nullable().optional(),
    categories: z.array(z.string().min(1).max(255)).max(20).optional(),
    settings: BroadcastSettings.optional(),
    /** A time in the future schedules the send as `PUT .../send` with `send_at` does (ADR 0201); null leaves a draft. */
    scheduled_at: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).nullable().optional(),
    sent_at: z.unknown().optional(),
    status: z.unknown().optional(),
    send_status: z.unknown().optional(),
    counts: z.unknown().optional(),
    goal_attachment: GoalAttachment.nullable().optional(),
    key: z.string().optional(),
    ...readOnlyEcho,
  })
  .superRefine(uniqueStepRefs('broadcast'))
  .meta({ id: 'BroadcastRequest' });
export type BroadcastRequestT = z.infer<typeof BroadcastRequest>;

/** What a broadcast holds once normalised: stored in its events, hashed into its sha. */
export const BroadcastContent = z.object({
  name: z.string(),
  description: z.string().nullable(),
  steps: z.array(z.record(z.string(), z.unknown())),
  target_audience_key: z.string().nullable(),
  categories: z.array(z.string()),
  settings: z.object({ is_commercial: z.boolean(), override_preferences: z.boolean() }),
  /** Only when given, so broadcasts without one hash as before. */
  goal_attachment: GoalAttachment.optional(),
});
export type BroadcastContentT = z.infer<typeof BroadcastContent>;

export const BroadcastCounts = z.object({ recipients: z.number().int(), messages: z.number().int(), skips: z.number().int() });

export const Broadcast = z
  .object({
    key: z.string(),
    name: z.string(),
    /** Absent when unset, as the reference types it without null (ADR 0119). */
    description: z.string().optional(),
    status: z.enum(['draft', 'scheduled', 'sent']),
    send_status: BroadcastSendStatus,
    steps: z.array(z.record(z.string(), z.unknown())),
    /** Absent when the broadcast goes to every user. */
    target_audience_key: z.string().optional(),
    categories: z.array(z.string()),
    settings: z.object({ is_commercial: z.boolean(), override_preferences: z.boolean() }),
    goal_attachment: GoalAttachment.optional(),
    valid: z.boolean(),
    errors: z.array(ResourceError).optional(),
    environment: z.string(),
    sha: z.string(),
    scheduled_at: z.string().nullable(),
    sent_at: z.string().nullable(),
    archived_at: z.null(),
    counts: BroadcastCounts,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Broadcast' });
export type BroadcastT = z.infer<typeof Broadcast>;

const Wrapped = z.object({ broadcast: Broadcast }).meta({ id: 'WrappedBroadcastResponse' });
const params = z.object({ broadcast_key: ResourceKey });

export const BroadcastSendBody = z
  .strictObject({ send_at: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional() })
  .meta({ id: 'BroadcastSendRequest' });

export const broadcastRoutes = {
  list: defineRoute({
    operationId: 'listBroadcasts',
    method: 'GET',
    path: '/v1/broadcasts',
    summary: 'List the broadcasts of an environment, newest first',
    tags: ['Broadcasts'],
    auth: 'service',
    rateTier: 4,
    query: EnvironmentQuery.extend(MgmtPageQuery.shape).extend({
      annotate: QueryFlag.optional(),
      hide_uncommitted_changes: QueryFlag.optional(),
    }),
    response: mgmtListOf(Broadcast).meta({ id: 'PaginatedBroadcastResponse' }),
  }),
  get: defineRoute({
    operationId: 'getBroadcast',
    method: 'GET',
    path: '/v1/broadcasts/{broadcast_key}',
    summary: 'Get a broadcast, with its status and counts',
    tags: ['Broadcasts'],
    auth: 'service',
    rateTier: 4,
    params,
    query: EnvironmentQuery.extend({ annotate: QueryFlag.optional(), hide_uncommitted_changes: QueryFlag.optional() }),
    response: Broadcast,
  }),
  upsert: defineRoute({
    operationId: 'upsertBroadcast',
    method: 'PUT',
    path: '/v1/broadcasts/{broadcast_key}',
    summary: 'Create or replace a draft broadcast',
    tags: ['Broadcasts'],
    auth: 'service',
    rateTier: 3,
    params,
    query: WriteOptions,
    body: z.object({ broadcast: BroadcastRequest }),
    response: Wrapped,
  }),
  validate: defineRoute({
    operationId: 'validateBroadcast',
    method: 'PUT',
    path: '/v1/broadcasts/{broadcast_key}/validate',
    summary: 'Validate a broadcast without saving it',
    tags: ['Broadcasts'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery,
    body: z.object({ broadcast: BroadcastRequest }),
    response: Wrapped,
  }),
  send: defineRoute({
    operationId: 'sendBroadcast',
    method: 'PUT',
    path: '/v1/broadcasts/{broadcast_key}/send',
    summary: 'Send a broadcast now, or at send_at',
    tags: ['Broadcasts'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery,
    body: BroadcastSendBody.optional(),
    response: Wrapped,
  }),
  cancel: defineRoute({
    operationId: 'cancelBroadcast',
    method: 'PUT',
    path: '/v1/broadcasts/{broadcast_key}/cancel',
    summary: 'Cancel a scheduled broadcast (back to draft) or one being sent (no further recipients)',
    tags: ['Broadcasts'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery,
    response: Wrapped,
  }),
};

// Events, on the broadcast's stream `broadcast-{environment}-{key}`.

export const BroadcastUpserted = defineEvent(
  'BroadcastUpserted',
  1,
  z.object({
    key: z.string(),
    content: BroadcastContent,
    sha: z.string(),
    valid: z.boolean(),
    errors: z.array(ResourceError),
    upserted_at: z.string(),
  }),
);
/** A send is asked for later: the timer fires at send_at. */
export const BroadcastScheduled = defineEvent(
  'BroadcastScheduled',
  1,
  z.object({ key: z.string(), send_id: z.uuid(), send_at: z.string(), scheduled_at: z.string() }),
);
/** Sending begins: the content sent is the one recorded here. */
export const BroadcastSendStarted = defineEvent(
  'BroadcastSendStarted',
  1,
  z.object({ key: z.string(), send_id: z.uuid(), content: BroadcastContent, sha: z.string(), started_at: z.string() }),
);
/**
 * A page of recipients is about to be triggered: the tenants it has runs in (ADR 0232), recorded
 * first so that a sender continuing the page after a stop finds every run of it, even of a tenant
 * whose members all left meanwhile. `page_start` is the cursor the page follows (null: the first).
 */
export const BroadcastPageStarted = defineEvent(
  'BroadcastPageStarted',
  1,
  z.object({ key: z.string(), send_id: z.uuid(), page_start: z.string().nullable(), tenants: z.array(z.string()), started_at: z.string() }),
);
/** A page of recipients was triggered; `cursor` is the last member of the page (where the next one starts). */
export const BroadcastPageSent = defineEvent(
  'BroadcastPageSent',
  1,
  z.object({ key: z.string(), send_id: z.uuid(), cursor: z.string(), recipients: z.number().int(), sent_at: z.string() }),
);
export const BroadcastSent = defineEvent(
  'BroadcastSent',
  1,
  z.object({ key: z.string(), send_id: z.uuid(), recipients: z.number().int(), completed_at: z.string() }),
);
/** Canceled while scheduled (back to draft) or while sending (no further pages). */
export const BroadcastCanceled = defineEvent(
  'BroadcastCanceled',
  1,
  z.object({ key: z.string(), send_id: z.uuid(), was: z.enum(['scheduled', 'sending']), canceled_at: z.string() }),
);

export const broadcastEventContracts = [
  BroadcastUpserted,
  BroadcastScheduled,
  BroadcastSendStarted,
  BroadcastPageStarted,
  BroadcastPageSent,
  BroadcastSent,
  BroadcastCanceled,
] as const;
