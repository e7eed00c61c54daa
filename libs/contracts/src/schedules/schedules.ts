import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { arrayParam, PageInfo, PageQuery, queryInt } from '../http/pagination';
import { defineRoute } from '../http/route';
import { BULK_MAX_ITEMS, BulkOperation } from '../recipients/bulk-operations';
import { IsoDateTime, RecipientId } from '../recipients/common';
import { ObjectPath, ObjectSchema } from '../recipients/objects';
import { RecipientRef, RecipientReference } from '../recipients/refs';
import { joinObjectFragments, RecipientRequest } from '../recipients/subscriptions';
import { User, UserPath } from '../recipients/users';
import { InlineTenantRequest, WorkflowKeyPath } from '../runs/trigger.routes';

/** Recipients one create request may name (each gets its own schedule). */
export const SCHEDULE_MAX_RECIPIENTS = 1000;
/** Repeat rules one schedule may have. */
export const SCHEDULE_MAX_RULES = 20;

export const Weekday = z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
export const Frequency = z.enum(['daily', 'weekly', 'monthly', 'hourly']);

/** One repeat rule (ADR 0140 says what each field means and what null stands for). */
export const ScheduleRepeatRule = z
  .strictObject({
    __typename: z.literal('ScheduleRepeat').optional(),
    frequency: Frequency,
    interval: z.number().int().min(1).max(1000).default(1),
    days: z.array(Weekday).min(1).max(7).nullable().optional(),
    day_of_month: z.number().int().min(1, 'must be between 1 and 31').max(31, 'must be between 1 and 31').nullable().optional(),
    hours: z.number().int().min(0, 'must be between 0 and 23').max(23, 'must be between 0 and 23').nullable().optional(),
    minutes: z.number().int().min(0, 'must be between 0 and 59').max(59, 'must be between 0 and 59').nullable().optional(),
  })
  .meta({ id: 'ScheduleRepeatRule' });
export type ScheduleRepeatRuleT = z.infer<typeof ScheduleRepeatRule>;

/** A rule as stored and answered: every field present. */
export const StoredRepeatRule = z.object({
  frequency: Frequency,
  interval: z.number().int(),
  days: z.array(Weekday).nullable(),
  day_of_month: z.number().int().nullable(),
  hours: z.number().int().nullable(),
  minutes: z.number().int().nullable(),
});
export type StoredRepeatRuleT = z.infer<typeof StoredRepeatRule>;

export const toStoredRule = (r: ScheduleRepeatRuleT): StoredRepeatRuleT => ({
  frequency: r.frequency,
  interval: r.interval ?? 1,
  days: r.days ? Weekday.options.filter((d) => r.days!.includes(d)) : null,
  day_of_month: r.day_of_month ?? null,
  hours: r.hours ?? null,
  minutes: r.minutes ?? null,
});

const Repeats = z.array(ScheduleRepeatRule).max(SCHEDULE_MAX_RULES, `at most ${SCHEDULE_MAX_RULES} rules`);
const ScheduleData = z.record(z.string(), z.unknown());

/** What create, bulk create and update share. */
const timing = {
  actor: RecipientRequest.nullable().optional(),
  tenant: InlineTenantRequest.nullable().optional(),
  data: ScheduleData.nullable().optional(),
  scheduled_at: IsoDateTime.nullable().optional(),
  ending_at: IsoDateTime.nullable().optional(),
  repeats: Repeats.nullable().optional(),
};

type Timing = { scheduled_at?: string | null; ending_at?: string | null; repeats?: unknown[] | null };

/** A schedule must be able to fire, and cannot end before it starts. */
function checkTiming(value: Timing, ctx: z.RefinementCtx, { creating }: { creating: boolean }): void {
  if (creating && !value.repeats?.length && !value.scheduled_at) {
    ctx.addIssue({ code: 'custom', path: ['repeats'], message: 'needs at least one repeat rule, or scheduled_at for a one-off schedule' });
  }
  if (value.scheduled_at && value.ending_at && Date.parse(value.ending_at) <= Date.parse(value.scheduled_at)) {
    ctx.addIssue({ code: 'custom', path: ['ending_at'], message: 'must be after scheduled_at' });
  }
}

export const CreateSchedulesBody = z
  .strictObject({
    workflow: WorkflowKeyPath.shape.key,
    recipients: z
      .array(RecipientRequest)
      .min(1, 'needs at least one recipient')
      .max(SCHEDULE_MAX_RECIPIENTS, `at most ${SCHEDULE_MAX_RECIPIENTS} recipients per request`),
    ...timing,
  })
  .superRefine((v, ctx) => checkTiming(v, ctx, { creating: true }))
  .meta({ id: 'CreateSchedulesRequest' });
export type CreateSchedulesBodyT = z.infer<typeof CreateSchedulesBody>;

const ScheduleIds = z
  .array(z.uuid())
  .min(1, 'needs at least one schedule id')
  .max(BULK_MAX_ITEMS, `at most ${BULK_MAX_ITEMS} schedule ids`);

export const UpdateSchedulesBody = z
  .strictObject({ schedule_ids: ScheduleIds, ...timing })
  .superRefine((v, ctx) => checkTiming(v, ctx, { creating: false }))
  .meta({ id: 'UpdateSchedulesRequest' });
export type UpdateSchedulesBodyT = z.infer<typeof UpdateSchedulesBody>;

export const DeleteSchedulesBody = z.strictObject({ schedule_ids: ScheduleIds }).meta({ id: 'DeleteSchedulesRequest' });

export const BulkScheduleItem = z
  .strictObject({ workflow: WorkflowKeyPath.shape.key, recipient: RecipientRequest, ...timing })
  .superRefine((v, ctx) => checkTiming(v, ctx, { creating: true }));
export type BulkScheduleItemT = z.infer<typeof BulkScheduleItem>;

export const BulkCreateSchedulesBody = z
  .strictObject({ schedules: z.array(BulkScheduleItem).min(1).max(BULK_MAX_ITEMS, `at most ${BULK_MAX_ITEMS} items per request`) })
  .meta({ id: 'BulkCreateSchedulesRequest' });

export const ScheduleRepeatAnswer = StoredRepeatRule.extend({ __typename: z.literal('ScheduleRepeat') });

export const Schedule = z
  .object({
    __typename: z.literal('Schedule'),
    id: z.uuid(),
    workflow: z.string(),
    recipient: z.union([User, ObjectSchema]),
    actor: z.union([User, ObjectSchema]).nullable(),
    tenant: z.string().nullable(),
    data: ScheduleData.nullable(),
    repeats: z.array(ScheduleRepeatAnswer),
    last_occurrence_at: z.string().nullable(),
    next_occurrence_at: z.string().nullable(),
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Schedule' });
export type ScheduleT = z.infer<typeof Schedule>;

export const SchedulesResponse = z.array(Schedule).meta({ id: 'SchedulesResponse' });
export const ListSchedulesResponse = z.object({ entries: z.array(Schedule), page_info: PageInfo }).meta({ id: 'ListSchedulesResponse' });

export const RecipientSchedulesQuery = PageQuery.extend({ tenant: RecipientId.optional(), workflow: WorkflowKeyPath.shape.key.optional() });
export const ListSchedulesQuery = PageQuery.extend({
  workflow: WorkflowKeyPath.shape.key,
  tenant: RecipientId.optional(),
  recipients: z.preprocess(joinObjectFragments, arrayParam(RecipientReference)).pipe(z.array(RecipientReference).max(100)).optional(),
});

/** One upcoming occurrence as the preview shows it. */
export const ScheduleOccurrence = z.object({
  /** The local date-time the rules name: the occurrence's identity. */
  occurrence: z.string(),
  /** When it fires, in UTC. */
  at: z.string(),
  /** When it fires, on the recipient's wall clock, with the offset. */
  local_at: z.string(),
  /** `gap`: the local time does not exist that day (clocks go forward); it fires when the gap ends. */
  adjusted: z.enum(['gap']).nullable(),
});

export const SchedulePreview = z
  .object({
    __typename: z.literal('SchedulePreview'),
    schedule_id: z.uuid(),
    time_zone: z.string(),
    /** Where the zone comes from: the recipient's timezone, the default setting, or UTC. */
    time_zone_source: z.enum(['recipient', 'default', 'utc']),
    occurrences: z.array(ScheduleOccurrence),
  })
  .meta({ id: 'SchedulePreview' });
export type SchedulePreviewT = z.infer<typeof SchedulePreview>;

// Events: on the schedule's stream (schedule-<env>-<id>).

const EventRule = StoredRepeatRule;

export const ScheduleCreated = defineEvent(
  'ScheduleCreated',
  1,
  z.object({
    schedule_id: z.uuid(),
    workflow: z.string(),
    recipient: RecipientRef,
    actor: RecipientRef.nullable(),
    tenant: z.string().nullable(),
    data: ScheduleData.nullable(),
    repeats: z.array(EventRule),
    scheduled_at: z.string().nullable(),
    ending_at: z.string().nullable(),
    created_at: z.string(),
  }),
);

/** Only the fields that changed. A change of timing (repeats, scheduled_at, ending_at) counts occurrences from updated_at. */
export const ScheduleUpdated = defineEvent(
  'ScheduleUpdated',
  1,
  z.object({
    schedule_id: z.uuid(),
    actor: RecipientRef.nullable().optional(),
    tenant: z.string().nullable().optional(),
    data: ScheduleData.nullable().optional(),
    repeats: z.array(EventRule).optional(),
    scheduled_at: z.string().nullable().optional(),
    ending_at: z.string().nullable().optional(),
    updated_at: z.string(),
  }),
);

export const ScheduleDeleted = defineEvent(
  'ScheduleDeleted',
  1,
  z.object({ schedule_id: z.uuid(), reason: z.enum(['requested', 'recipient_deleted']), deleted_at: z.string() }),
);

/**
 * An occurrence was decided: its workflow run was triggered (recorded with the trigger, in the
 * same append), or it was skipped and why. `occurrence` (local date-time) is its identity.
 */
export const OccurrenceFired = defineEvent(
  'OccurrenceFired',
  1,
  z.object({
    schedule_id: z.uuid(),
    occurrence: z.string(),
    /** The instant it was due. */
    due_at: z.string(),
    time_zone: z.string(),
    status: z.enum(['triggered', 'skipped']),
    /** Why it was skipped: missed (older than the catch-up window), workflow_missing, workflow_inactive, trigger_refused. */
    reason: z.string().nullable(),
    workflow_run_id: z.uuid().nullable(),
    fired_at: z.string(),
  }),
);

export const scheduleEventContracts = [ScheduleCreated, ScheduleUpdated, ScheduleDeleted, OccurrenceFired] as const;

// Routes

export const createSchedulesRoute = defineRoute({
  operationId: 'createSchedules',
  method: 'POST',
  path: '/v1/schedules',
  summary: 'Create a schedule for each recipient',
  tags: ['Schedules'],
  auth: 'secret',
  rateTier: 3,
  body: CreateSchedulesBody,
  response: SchedulesResponse,
});

export const updateSchedulesRoute = defineRoute({
  operationId: 'updateSchedules',
  method: 'PUT',
  path: '/v1/schedules',
  summary: 'Update schedules, all with the same values',
  tags: ['Schedules'],
  auth: 'secret',
  rateTier: 3,
  body: UpdateSchedulesBody,
  response: SchedulesResponse,
});

export const deleteSchedulesRoute = defineRoute({
  operationId: 'deleteSchedules',
  method: 'DELETE',
  path: '/v1/schedules',
  summary: 'Delete schedules (answers them as they were)',
  tags: ['Schedules'],
  auth: 'secret',
  rateTier: 3,
  body: DeleteSchedulesBody,
  response: SchedulesResponse,
});

export const listSchedulesRoute = defineRoute({
  operationId: 'listSchedules',
  method: 'GET',
  path: '/v1/schedules',
  summary: "List a workflow's schedules, optionally for some recipients or a tenant",
  tags: ['Schedules'],
  auth: 'secret',
  rateTier: 4,
  query: ListSchedulesQuery,
  response: ListSchedulesResponse,
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
  query: RecipientSchedulesQuery,
  response: ListSchedulesResponse,
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
  query: RecipientSchedulesQuery,
  response: ListSchedulesResponse,
});

export const bulkCreateSchedulesRoute = defineRoute({
  operationId: 'bulkCreateSchedules',
  method: 'POST',
  path: '/v1/schedules/bulk/create',
  summary: 'Create up to 1,000 schedules in the background',
  tags: ['Schedules', 'Bulk operations'],
  auth: 'secret',
  rateTier: 1,
  body: BulkCreateSchedulesBody,
  response: BulkOperation,
});

export const previewScheduleRoute = defineRoute({
  operationId: 'previewSchedule',
  method: 'GET',
  path: '/v1/schedules/{schedule_id}/preview',
  summary: "The schedule's next occurrences, in UTC and on the recipient's wall clock (not in the reference API)",
  tags: ['Schedules'],
  auth: 'secret',
  rateTier: 4,
  params: z.object({ schedule_id: z.uuid() }),
  query: z.object({ count: queryInt(z.number().int().min(1).max(100)).default(10) }),
  response: SchedulePreview,
});
