import { z } from 'zod';
import { ConditionGroup } from '../conditions';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { EnvironmentQuery, MgmtPageQuery, mgmtListOf, QueryFlag, readOnlyEcho, ResourceKey } from '../config/mgmt';
import { RecipientRef } from '../recipients/refs';

/**
 * Goals (ADR 0196): an event that counts as a conversion. A workflow attaches one
 * (`goal_attachment`); when the goal's event happens for a recipient, that recipient's runs of
 * the attached workflow within the attribution window are marked converted.
 */

export const GoalEventCondition = z.union([
  z.strictObject({ event_type: z.literal('recipient'), event_key: z.literal('updated').optional() }),
  z.strictObject({
    event_type: z.literal('integration_source'),
    integration_source_key: ResourceKey,
    event_key: z.string().min(1).max(255),
  }),
  z.strictObject({ event_type: z.literal('audience'), audience_key: z.string().min(1).max(255), event_key: z.enum(['enter', 'exit']) }),
]);

export const GoalCondition = z.strictObject({
  event: GoalEventCondition,
  match_conditions: z.array(ConditionGroup).max(20).optional(),
});
export type GoalConditionT = z.infer<typeof GoalCondition>;

export const GoalRequest = z.strictObject({
  name: z.string().min(1, 'is required').max(255),
  condition: GoalCondition,
  key: z.unknown().optional(),
  ...readOnlyEcho,
});
export type GoalRequestT = z.infer<typeof GoalRequest>;

export const GoalAttachment = z
  .strictObject({ goal_key: ResourceKey, attribution_window_days: z.number().int().min(1).max(30).optional() })
  .meta({ id: 'GoalAttachment' });
export type GoalAttachmentT = z.infer<typeof GoalAttachment>;

/** Days a run stays attributable when the attachment names none. */
export const DEFAULT_ATTRIBUTION_WINDOW_DAYS = 7;

export const Goal = z
  .object({
    key: z.string(),
    name: z.string(),
    condition: z.record(z.string(), z.unknown()),
    environment: z.string(),
    sha: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Goal' });
export type GoalT = z.infer<typeof Goal>;

const Wrapped = z.object({ goal: Goal }).meta({ id: 'WrappedGoalResponse' });
const params = z.object({ goal_key: ResourceKey });

export const goalRoutes = {
  list: defineRoute({
    operationId: 'listGoals',
    method: 'GET',
    path: '/v1/goals',
    summary: 'List the goals of an environment',
    tags: ['Goals'],
    auth: 'service',
    rateTier: 4,
    query: EnvironmentQuery.extend(MgmtPageQuery.shape).extend({ annotate: QueryFlag.optional() }),
    response: mgmtListOf(Goal).meta({ id: 'PaginatedGoalResponse' }),
  }),
  get: defineRoute({
    operationId: 'getGoal',
    method: 'GET',
    path: '/v1/goals/{goal_key}',
    summary: 'Get a goal',
    tags: ['Goals'],
    auth: 'service',
    rateTier: 4,
    params,
    query: EnvironmentQuery.extend({ annotate: QueryFlag.optional() }),
    response: Goal,
  }),
  upsert: defineRoute({
    operationId: 'upsertGoal',
    method: 'PUT',
    path: '/v1/goals/{goal_key}',
    summary: 'Create or replace a goal',
    tags: ['Goals'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery.extend({ annotate: QueryFlag.optional() }),
    body: z.object({ goal: GoalRequest }),
    response: Wrapped,
  }),
  validate: defineRoute({
    operationId: 'validateGoal',
    method: 'PUT',
    path: '/v1/goals/{goal_key}/validate',
    summary: 'Validate a goal without saving it',
    tags: ['Goals'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery,
    body: z.object({ goal: GoalRequest }),
    response: Wrapped,
  }),
  archive: defineRoute({
    operationId: 'archiveGoal',
    method: 'DELETE',
    path: '/v1/goals/{goal_key}',
    summary: 'Archive a goal: it leaves the lists and converts nothing more',
    tags: ['Goals'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery,
    response: z.object({ result: z.string() }).meta({ id: 'ArchiveGoalResponse' }),
  }),
  clone: defineRoute({
    operationId: 'cloneGoal',
    method: 'POST',
    path: '/v1/goals/{goal_key}/clone',
    summary: 'Copy a goal under a new key, into this or another environment',
    tags: ['Goals'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery,
    body: z.object({ clone: z.object({ key: ResourceKey, name: z.string().min(1).max(255), environment: z.string().min(1).max(63) }) }),
    response: Wrapped,
  }),
  conversions: defineRoute({
    operationId: 'listGoalConversions',
    method: 'GET',
    path: '/v1/goals/{goal_key}/conversions',
    summary: 'Conversion counts of a goal per attached workflow',
    tags: ['Goals'],
    auth: 'service',
    rateTier: 4,
    params,
    query: EnvironmentQuery,
    response: z.object({
      entries: z.array(z.object({ workflow_key: z.string(), conversions: z.number().int(), last_converted_at: z.string().nullable() })),
    }),
  }),
};

// Events: a goal's definition on `goal-{environment}-{key}`; a run's conversion to a goal on
// `goal_conversion-{environment}-{goal}-{run id}` (a run converts once per goal).

export const GoalUpserted = defineEvent(
  'GoalUpserted',
  1,
  z.object({ key: z.string(), name: z.string(), condition: GoalCondition, sha: z.string(), upserted_at: z.string() }),
);

export const GoalArchived = defineEvent('GoalArchived', 1, z.object({ key: z.string(), archived_at: z.string() }));

export const RunConverted = defineEvent(
  'RunConverted',
  1,
  z.object({
    goal_key: z.string(),
    run_id: z.uuid(),
    workflow_run_id: z.uuid(),
    workflow_key: z.string(),
    recipient: RecipientRef,
    /** What happened: the source event (its source and log), the recipient update or the audience entry or exit (ADR 0247). */
    cause: z.object({
      type: z.enum(['source_event', 'recipient_event', 'audience_event']),
      source_key: z.string().nullable(),
      log_id: z.string().nullable(),
      /** The audience entered or exited (audience events). */
      audience_key: z.string().optional(),
    }),
    run_started_at: z.string(),
    converted_at: z.string(),
  }),
);

export const goalEventContracts = [GoalUpserted, GoalArchived, RunConverted];
