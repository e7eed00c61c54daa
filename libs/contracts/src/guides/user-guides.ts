import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { Id } from '../http/ids';
import { defineRoute } from '../http/route';
import { RecipientId } from '../recipients/common';

/** The guides a user is shown on a guide channel, and their engagement (ADR 0187). */

const JsonObject = z
  .string()
  .max(10_000)
  .transform((s, ctx) => {
    try {
      const v = JSON.parse(s) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
    return z.NEVER;
  });

export const UserGuidesQuery = z.object({
  tenant: Id.optional(),
  /** A JSON object the targeting conditions read as `data`. */
  data: JsonObject.optional(),
  /** Only guides of this message type. */
  type: z.string().max(255).optional(),
  force_all_guides: z.string().optional(),
});

const StepMessage = z.object({
  id: z.uuid().nullable(),
  seen_at: z.string().nullable(),
  read_at: z.string().nullable(),
  interacted_at: z.string().nullable(),
  archived_at: z.string().nullable(),
  link_clicked_at: z.string().nullable(),
});

export const UserGuide = z
  .object({
    __typename: z.literal('Guide'),
    id: z.uuid(),
    key: z.string(),
    channel_id: z.uuid(),
    type: z.string(),
    active: z.boolean(),
    steps: z.array(
      z.object({
        ref: z.string(),
        schema_key: z.string(),
        schema_semver: z.string(),
        schema_variant_key: z.string(),
        content: z.record(z.string(), z.unknown()),
        message: StepMessage,
      }),
    ),
    activation_url_patterns: z.array(z.object({ directive: z.string(), pathname: z.string().optional(), search: z.string().optional() })),
    activation_url_rules: z.array(z.object({ directive: z.string(), variable: z.string(), operator: z.string(), argument: z.string() })),
    bypass_global_group_limit: z.boolean(),
    /** Absent: this service has no dashboard. */
    dashboard_url: z.string().optional(),
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'UserGuide' });
export type UserGuideT = z.infer<typeof UserGuide>;

export const GuideIneligibilityReason = z.enum([
  'guide_not_active',
  'marked_as_archived',
  'target_conditions_not_met',
  'not_in_target_audience',
]);

export const GuideGroup = z.object({
  __typename: z.literal('GuideGroup'),
  key: z.string(),
  display_sequence: z.array(z.string()),
  display_sequence_unthrottled: z.array(z.string()).nullable(),
  display_sequence_throttled: z.array(z.string()).nullable(),
  /** Seconds of throttle after a dismissal; absent when the group has none (the reference's integer is not nullable). */
  display_interval: z.number().int().optional(),
  inserted_at: z.string(),
  updated_at: z.string(),
});
export type GuideGroupT = z.infer<typeof GuideGroup>;

export const UserGuidesResponse = z
  .object({
    entries: z.array(UserGuide),
    guide_groups: z.array(GuideGroup),
    guide_group_display_logs: z.record(z.string(), z.string()),
    ineligible_guides: z.array(
      z.object({
        __typename: z.literal('GuideIneligibilityMarker'),
        key: z.string(),
        reason: GuideIneligibilityReason,
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'UserGuidesResponse' });

const UserPath = z.object({ user_id: RecipientId });
const StepRef = {
  channel_id: z.string().min(1).max(255),
  guide_id: z.uuid(),
  guide_key: z.string().min(1).max(255),
  guide_step_ref: z.string().min(1).max(255),
  tenant: Id.nullable().optional(),
};
export const GuideSeenBody = z.object({
  ...StepRef,
  content: z.record(z.string(), z.unknown()).optional(),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
});
export const GuideInteractedBody = z.object({ ...StepRef, metadata: z.record(z.string(), z.unknown()).nullable().optional() });
export const GuideArchivedBody = z.object({ ...StepRef, is_final: z.boolean().optional(), unthrottled: z.boolean().optional() });
export const GuideKeyBody = z.object({ guide_key: z.string().min(1).max(255), tenant: Id.nullable().optional() });
const ActionResponse = z.object({ status: z.literal('ok') }).meta({ id: 'GuideActionResponse' });

const engagementRoute = <B extends z.ZodType>(action: 'seen' | 'interacted' | 'archived', body: B, withMessageId: boolean) =>
  defineRoute({
    operationId: `markUserGuideAs${action[0].toUpperCase()}${action.slice(1)}${withMessageId ? 'ById' : ''}`,
    method: 'PUT',
    path: withMessageId ? `/v1/users/{user_id}/guides/messages/{message_id}/${action}` : `/v1/users/{user_id}/guides/messages/${action}`,
    summary: `Record that the user ${action === 'seen' ? 'saw' : action === 'interacted' ? 'interacted with' : 'archived'} a step of a guide`,
    tags: ['Guides'],
    auth: 'public',
    userScope: { params: ['user_id'] },
    rateTier: 2,
    params: withMessageId ? UserPath.extend({ message_id: z.string().max(255) }) : UserPath,
    body,
    response: ActionResponse,
  });

export const userGuideRoutes = {
  list: defineRoute({
    operationId: 'listUserGuides',
    method: 'GET',
    path: '/v1/users/{user_id}/guides/{channel_id}',
    summary: 'The guides a user is shown on a guide channel, and those they are not shown with the reason',
    tags: ['Guides'],
    auth: 'public',
    userScope: { params: ['user_id'] },
    rateTier: 2,
    params: UserPath.extend({ channel_id: z.string().min(1).max(255) }),
    query: UserGuidesQuery,
    response: UserGuidesResponse,
  }),
  seen: engagementRoute('seen', GuideSeenBody, false),
  seenById: engagementRoute('seen', GuideSeenBody, true),
  interacted: engagementRoute('interacted', GuideInteractedBody, false),
  interactedById: engagementRoute('interacted', GuideInteractedBody, true),
  archived: engagementRoute('archived', GuideArchivedBody, false),
  archivedById: engagementRoute('archived', GuideArchivedBody, true),
  unarchived: defineRoute({
    operationId: 'markUserGuideAsUnarchived',
    method: 'DELETE',
    path: '/v1/users/{user_id}/guides/messages/archived',
    summary: 'Unarchive the steps of a guide the user archived: it is shown again',
    tags: ['Guides'],
    auth: 'public',
    userScope: { params: ['user_id'] },
    rateTier: 2,
    params: UserPath,
    body: GuideKeyBody,
    response: ActionResponse,
  }),
  reset: defineRoute({
    operationId: 'resetUserGuideEngagement',
    method: 'PUT',
    path: '/v1/users/{user_id}/guides/engagements/reset',
    summary: "Start the user's engagement with a guide afresh: the next engagement records new guide messages",
    tags: ['Guides'],
    auth: 'public',
    userScope: { params: ['user_id'] },
    rateTier: 2,
    params: UserPath,
    body: GuideKeyBody,
    response: ActionResponse,
  }),
};

/** The user's engagement with a guide starts afresh: later engagement is recorded on new guide messages. */
export const GuideEngagementReset = defineEvent(
  'GuideEngagementReset',
  1,
  z.object({
    guide_key: z.string(),
    user_id: z.string(),
    tenant: z.string().nullable(),
    generation: z.number().int(),
    reset_at: z.string(),
  }),
);
export const guideEngagementEventContracts = [GuideEngagementReset] as const;
