import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { EnvironmentQuery } from './mgmt';

/**
 * Guide groups: the display order of an environment's guides, which guides ignore the group's
 * throttle, and the throttle itself (after a user dismisses a guide, no other throttled guide is
 * shown for `display_interval` seconds). One group, `default`, as the clients read it; per
 * environment, not versioned (ADR 0166).
 */

export const DEFAULT_GUIDE_GROUP_KEY = 'default';

const GuideKeyList = z
  .array(z.string().min(1).max(255))
  .max(500)
  .superRefine((keys, ctx) => {
    const seen = new Set<string>();
    keys.forEach((k, i) => {
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [i], message: `${k} is listed twice` });
      seen.add(k);
    });
  });

export const GuideGroupRequest = z.strictObject({
  /** Guide keys, first shown first; guides left out follow, oldest first. */
  display_sequence: GuideKeyList.default([]),
  /** Guide keys shown whatever the throttle (the clients' `bypass_global_group_limit`). */
  display_sequence_unthrottled: GuideKeyList.default([]),
  /** Seconds after a dismissal during which no other throttled guide is shown; null: no throttle. */
  display_interval: z.number().int().min(0).max(31_536_000).nullable().default(null),
});
export type GuideGroupRequestT = z.infer<typeof GuideGroupRequest>;

export const GuideGroupConfig = z
  .object({
    key: z.string(),
    display_sequence: z.array(z.string()),
    display_sequence_unthrottled: z.array(z.string()),
    display_interval: z.number().int().nullable(),
    environment: z.string(),
    /** Null until the group was configured (it then orders guides oldest first, without a throttle). */
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'GuideGroupConfig' });
export type GuideGroupConfigT = z.infer<typeof GuideGroupConfig>;

export const GuideGroupUpdated = defineEvent(
  'GuideGroupUpdated',
  1,
  z.object({
    key: z.string(),
    display_sequence: z.array(z.string()),
    display_sequence_unthrottled: z.array(z.string()),
    display_interval: z.number().int().nullable(),
    updated_at: z.string(),
  }),
);
export const guideGroupEventContracts = [GuideGroupUpdated] as const;

const GroupPath = z.object({ guide_group_key: z.string().min(1).max(255) });
const WrappedGroup = z.object({ guide_group: GuideGroupConfig }).meta({ id: 'WrappedGuideGroup' });

export const guideGroupRoutes = {
  list: defineRoute({
    operationId: 'listGuideGroups',
    method: 'GET',
    path: '/v1/guide_groups',
    summary: "List an environment's guide groups (the default group)",
    tags: ['Guides'],
    auth: 'service',
    rateTier: 4,
    query: EnvironmentQuery,
    response: z.object({ entries: z.array(GuideGroupConfig) }).meta({ id: 'ListGuideGroupsResponse' }),
  }),
  get: defineRoute({
    operationId: 'getGuideGroup',
    method: 'GET',
    path: '/v1/guide_groups/{guide_group_key}',
    summary: 'Get a guide group: display order, unthrottled guides and throttle interval',
    tags: ['Guides'],
    auth: 'service',
    rateTier: 4,
    params: GroupPath,
    query: EnvironmentQuery,
    response: WrappedGroup,
  }),
  upsert: defineRoute({
    operationId: 'upsertGuideGroup',
    method: 'PUT',
    path: '/v1/guide_groups/{guide_group_key}',
    summary: 'Set the display order and throttle of a guide group; every key must be a guide of the environment',
    tags: ['Guides'],
    auth: 'service',
    rateTier: 3,
    params: GroupPath,
    query: EnvironmentQuery,
    body: z.object({ guide_group: GuideGroupRequest }),
    response: WrappedGroup,
  }),
};
