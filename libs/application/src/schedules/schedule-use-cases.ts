import {
  CreateSchedulesBodyT,
  RecipientRefT,
  RecipientRequestT,
  ScheduleRepeatRuleT,
  toStoredRule,
  UpdateSchedulesBodyT,
} from '@notify/contracts';
import {
  FieldError,
  fold,
  invalidParams,
  ScheduleDefinition,
  ScheduleEvent,
  SchedulePatch,
  scheduleDecider,
  ScheduleState,
  scheduleStream,
} from '@notify/domain';
import { randomUUID } from 'node:crypto';
import { CommandMetadata, CommandOutcome, handleCommand, toDomainEvent } from '../handle-command';
import { identifiedRef, identifyInline, identifyInlineTenant, inBatches, TriggerWrites, uniqueRecipientRefs } from '../engine/trigger';
import type { EngineLookups } from '../engine/lookups';
import { deterministicId } from '../recipients/event-ids';
import { RecipientDeps } from '../recipients/ports';

export interface ScheduleDeps {
  recipients: RecipientDeps;
  lookups: Pick<EngineLookups, 'workflow' | 'recipient'>;
}

export type ScheduleOutcome = CommandOutcome<ScheduleState, ScheduleEvent>;

/** What a schedule write did: the schedules it touched (in request order) and every append, for read-your-writes. */
export interface ScheduleWrites extends TriggerWrites {
  scheduleIds: string[];
}

const stored = (repeats: ScheduleRepeatRuleT[] | null | undefined) => (repeats ?? []).map(toStoredRule);

/** Users and objects named by id must exist: a schedule answers its recipient in full. */
async function checkKnown(
  deps: ScheduleDeps,
  environment: string,
  named: { field: string; request: RecipientRequestT }[],
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  await inBatches(named, 16, async ({ field, request }) => {
    if (typeof request !== 'string') return;
    if (!(await deps.lookups.recipient(environment, { type: 'user', id: request }))) {
      errors.push({ field, message: `user ${request} has not been identified; identify it first or pass it inline`, type: 'reference' });
    }
  });
  return errors.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }));
}

export interface CreateOptions {
  /** Deterministic schedule ids (a bulk item redone after a crash creates nothing twice). */
  idFor?: (recipient: RecipientRefT) => string;
  /** The time of creation (occurrences count from it); the clock's by default. */
  now?: Date;
}

/**
 * Creates one schedule per recipient. Everything is checked before anything is written: the
 * workflow exists (an inactive one is allowed: its occurrences are skipped until it is
 * activated), users named by id exist, the timing can fire. Inline recipients, actor and tenant
 * are identified first, as a trigger does.
 */
export async function createSchedules(
  deps: ScheduleDeps,
  environment: string,
  body: CreateSchedulesBodyT,
  metadata: CommandMetadata,
  options: CreateOptions = {},
): Promise<ScheduleWrites> {
  const workflow = await deps.lookups.workflow(environment, body.workflow);
  const errors: FieldError[] = workflow
    ? []
    : [{ field: 'workflow', message: `no workflow ${body.workflow} exists in this environment`, type: 'reference' }];
  errors.push(
    ...(await checkKnown(deps, environment, [
      ...body.recipients.map((request, i) => ({ field: `recipients.${i}`, request })),
      ...(body.actor ? [{ field: 'actor', request: body.actor }] : []),
    ])),
  );
  if (errors.length) throw invalidParams(errors);

  const writes: ScheduleWrites = { appends: [], scheduleIds: [] };
  await inBatches([...(body.actor ? [body.actor] : []), ...body.recipients], 8, (r) =>
    identifyInline(deps.recipients, environment, r, metadata, writes),
  );
  const tenant = await identifyInlineTenant(deps.recipients, environment, body.tenant, metadata, writes);
  const base: Omit<ScheduleDefinition, 'recipient'> = {
    workflow: body.workflow,
    actor: body.actor ? identifiedRef(body.actor) : null,
    tenant,
    data: body.data ?? null,
    repeats: stored(body.repeats),
    scheduledAt: body.scheduled_at ?? null,
    endingAt: body.ending_at ?? null,
  };
  const now = (options.now ?? new Date()).toISOString();
  const recipients = uniqueRecipientRefs(body.recipients);
  const ids = recipients.map((r) => options.idFor?.(r) ?? randomUUID());
  await inBatches(
    recipients.map((recipient, i) => ({ recipient, id: ids[i] })),
    8,
    async ({ recipient, id }) => {
      const outcome = await handleCommand(
        deps.recipients.store,
        scheduleStream(environment, id),
        scheduleDecider,
        { type: 'CreateSchedule', scheduleId: id, definition: { ...base, recipient }, now },
        metadata,
        {
          eventId: () => deterministicId(`schedule-created:${id}`),
        },
      );
      if (outcome.append) writes.appends.push({ append: outcome.append, events: outcome.events });
    },
  );
  writes.scheduleIds = ids;
  return writes;
}

/** Updates every schedule named with the same values; all must exist, or nothing is written. */
export async function updateSchedules(
  deps: ScheduleDeps,
  environment: string,
  body: UpdateSchedulesBodyT,
  metadata: CommandMetadata,
): Promise<ScheduleWrites> {
  const ids = [...new Set(body.schedule_ids)];
  const streams = await deps.recipients.store.readStreams(ids.map((id) => scheduleStream(environment, id)));
  const errors: FieldError[] = [];
  ids.forEach((id, i) => {
    const state = fold(scheduleDecider, (streams.get(scheduleStream(environment, id)) ?? []).map(toDomainEvent) as ScheduleEvent[]);
    if (!state.exists || state.deleted)
      errors.push({ field: `schedule_ids.${body.schedule_ids.indexOf(id, i)}`, message: `no schedule ${id} exists`, type: 'reference' });
  });
  if (body.actor) errors.push(...(await checkKnown(deps, environment, [{ field: 'actor', request: body.actor }])));
  if (errors.length) throw invalidParams(errors);

  const tenantId =
    body.tenant === undefined || body.tenant === null
      ? body.tenant
      : typeof body.tenant === 'string'
        ? body.tenant
        : (body.tenant as { id: string }).id;
  const patch: SchedulePatch = {
    ...(body.actor !== undefined ? { actor: body.actor ? identifiedRef(body.actor) : null } : {}),
    ...(tenantId !== undefined ? { tenant: tenantId } : {}),
    ...(body.data !== undefined ? { data: body.data } : {}),
    ...(body.repeats !== undefined ? { repeats: stored(body.repeats) } : {}),
    ...(body.scheduled_at !== undefined ? { scheduledAt: body.scheduled_at } : {}),
    ...(body.ending_at !== undefined ? { endingAt: body.ending_at } : {}),
  };
  const now = new Date().toISOString();
  // Each schedule's timing is checked against its own stored values (the decider throws the
  // refusal) before anything is written.
  for (const id of ids) {
    const state = fold(scheduleDecider, (streams.get(scheduleStream(environment, id)) ?? []).map(toDomainEvent) as ScheduleEvent[]);
    scheduleDecider.decide({ type: 'UpdateSchedule', scheduleId: id, patch, now }, state);
  }
  const writes: ScheduleWrites = { appends: [], scheduleIds: ids };
  if (body.actor) await identifyInline(deps.recipients, environment, body.actor, metadata, writes);
  if (body.tenant) await identifyInlineTenant(deps.recipients, environment, body.tenant, metadata, writes);
  await inBatches(ids, 8, async (id) => {
    const outcome = await handleCommand(
      deps.recipients.store,
      scheduleStream(environment, id),
      scheduleDecider,
      { type: 'UpdateSchedule', scheduleId: id, patch, now },
      metadata,
    );
    if (outcome.append) writes.appends.push({ append: outcome.append, events: outcome.events });
  });
  return writes;
}

/** Deletes the schedules named; unknown or already deleted ones change nothing. */
export async function deleteSchedules(
  deps: Pick<ScheduleDeps, 'recipients'>,
  environment: string,
  scheduleIds: readonly string[],
  reason: 'requested' | 'recipient_deleted',
  metadata: CommandMetadata,
  options: { seed?: string } = {},
): Promise<ScheduleWrites> {
  const ids = [...new Set(scheduleIds)];
  const writes: ScheduleWrites = { appends: [], scheduleIds: ids };
  const now = new Date().toISOString();
  await inBatches(ids, 8, async (id) => {
    const outcome = await handleCommand(
      deps.recipients.store,
      scheduleStream(environment, id),
      scheduleDecider,
      { type: 'DeleteSchedule', scheduleId: id, reason, now },
      metadata,
      {
        eventId: options.seed === undefined ? undefined : () => deterministicId(`${options.seed}:${id}`),
      },
    );
    if (outcome.append) writes.appends.push({ append: outcome.append, events: outcome.events });
  });
  return writes;
}
