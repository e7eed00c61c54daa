import type { RecipientRefT } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { DomainError, FieldError, invalidParams } from '../shared/errors';
import { sameJson } from '../shared/same-json';
import { ScheduleCommand, ScheduleDefinition } from './schedule.commands';
import { ScheduleEvent } from './schedule.events';
import { pendingOccurrences, ScheduleTiming } from './schedule-timing';

export interface ScheduleState {
  exists: boolean;
  deleted: boolean;
  definition: ScheduleDefinition | null;
  timing: ScheduleTiming | null;
  lastOccurrenceAt: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

const initialState = (): ScheduleState => ({
  exists: false,
  deleted: false,
  definition: null,
  timing: null,
  lastOccurrenceAt: null,
  createdAt: null,
  updatedAt: null,
});

/** A schedule must be able to fire, and cannot end before it starts. */
function checkTiming(definition: Pick<ScheduleDefinition, 'repeats' | 'scheduledAt' | 'endingAt'>): void {
  const errors: FieldError[] = [];
  if (definition.repeats.length === 0 && !definition.scheduledAt)
    errors.push({ field: 'repeats', message: 'needs at least one repeat rule, or scheduled_at for a one-off schedule', type: 'required' });
  if (definition.scheduledAt && definition.endingAt && Date.parse(definition.endingAt) <= Date.parse(definition.scheduledAt)) {
    errors.push({ field: 'ending_at', message: 'must be after scheduled_at', type: 'range' });
  }
  if (errors.length) throw invalidParams(errors);
}

const timingKeys = ['repeats', 'scheduledAt', 'endingAt'] as const;
const wire = {
  actor: 'actor',
  tenant: 'tenant',
  data: 'data',
  repeats: 'repeats',
  scheduledAt: 'scheduled_at',
  endingAt: 'ending_at',
} as const;

export const scheduleDecider: Decider<ScheduleState, ScheduleCommand, ScheduleEvent> = {
  initialState,

  evolve(state, event) {
    switch (event.type) {
      case 'ScheduleCreated': {
        const d = event.data;
        const definition: ScheduleDefinition = {
          workflow: d.workflow,
          recipient: d.recipient,
          actor: d.actor,
          tenant: d.tenant,
          data: d.data,
          repeats: d.repeats,
          scheduledAt: d.scheduled_at,
          endingAt: d.ending_at,
        };
        return {
          ...initialState(),
          exists: true,
          definition,
          timing: {
            repeats: d.repeats,
            scheduledAt: d.scheduled_at,
            endingAt: d.ending_at,
            createdAt: d.created_at,
            countFrom: d.created_at,
            lastOccurrence: null,
          },
          createdAt: d.created_at,
          updatedAt: d.created_at,
        };
      }
      case 'ScheduleUpdated': {
        if (!state.definition || !state.timing) return state;
        const d = event.data;
        const definition: ScheduleDefinition = {
          ...state.definition,
          ...(d.actor !== undefined ? { actor: d.actor as RecipientRefT | null } : {}),
          ...(d.tenant !== undefined ? { tenant: d.tenant } : {}),
          ...(d.data !== undefined ? { data: d.data } : {}),
          ...(d.repeats !== undefined ? { repeats: d.repeats } : {}),
          ...(d.scheduled_at !== undefined ? { scheduledAt: d.scheduled_at } : {}),
          ...(d.ending_at !== undefined ? { endingAt: d.ending_at } : {}),
        };
        const retimed = d.repeats !== undefined || d.scheduled_at !== undefined || d.ending_at !== undefined;
        const timing: ScheduleTiming = retimed
          ? {
              ...state.timing,
              repeats: definition.repeats,
              scheduledAt: definition.scheduledAt,
              endingAt: definition.endingAt,
              countFrom: d.updated_at,
            }
          : state.timing;
        return { ...state, definition, timing, updatedAt: d.updated_at };
      }
      case 'ScheduleDeleted':
        return { ...state, deleted: true, updatedAt: event.data.deleted_at };
      case 'OccurrenceFired':
        if (!state.timing) return state;
        return { ...state, timing: { ...state.timing, lastOccurrence: event.data.occurrence }, lastOccurrenceAt: event.data.due_at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateSchedule': {
        // The id is the request's: a retry (or a bulk chunk redone) creates nothing twice.
        if (state.exists) return [];
        const d = command.definition;
        checkTiming(d);
        return [
          {
            type: 'ScheduleCreated',
            data: {
              schedule_id: command.scheduleId,
              workflow: d.workflow,
              recipient: d.recipient,
              actor: d.actor,
              tenant: d.tenant,
              data: d.data,
              repeats: d.repeats.map((r) => ({ ...r, days: r.days ? [...r.days] : null })),
              scheduled_at: d.scheduledAt,
              ending_at: d.endingAt,
              created_at: command.now,
            },
          },
        ];
      }
      case 'UpdateSchedule': {
        if (!state.exists || state.deleted || !state.definition)
          throw new DomainError('resource_missing', `No schedule ${command.scheduleId} exists`, 'not_found');
        const changed: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(command.patch) as [keyof typeof wire, unknown][]) {
          if (value === undefined || sameJson(state.definition[key], value)) continue;
          changed[wire[key]] = value;
        }
        if (Object.keys(changed).length === 0) return [];
        const merged = {
          ...state.definition,
          ...Object.fromEntries(Object.entries(command.patch).filter(([, v]) => v !== undefined)),
        } as ScheduleDefinition;
        if (timingKeys.some((k) => command.patch[k] !== undefined)) checkTiming(merged);
        return [{ type: 'ScheduleUpdated', data: { schedule_id: command.scheduleId, ...changed, updated_at: command.now } }];
      }
      case 'DeleteSchedule':
        if (!state.exists || state.deleted) return [];
        return [{ type: 'ScheduleDeleted', data: { schedule_id: command.scheduleId, reason: command.reason, deleted_at: command.now } }];
      case 'FireDueOccurrences': {
        if (!state.exists || state.deleted || !state.timing) return [];
        const due = pendingOccurrences(state.timing, command.timeZone, { limit: command.limit, until: command.now });
        const oldest = Date.parse(command.now) - command.catchUpMs;
        return due.map((o) => {
          const reason = Date.parse(o.at) < oldest ? 'missed' : command.skipReason;
          return {
            type: 'OccurrenceFired' as const,
            data: {
              schedule_id: command.scheduleId,
              occurrence: o.local,
              due_at: o.at,
              time_zone: command.timeZone,
              status: reason ? ('skipped' as const) : ('triggered' as const),
              reason,
              workflow_run_id: reason ? null : command.runIdFor(o.local),
              fired_at: command.now,
            },
          };
        });
      }
      default:
        return assertNever(command);
    }
  },
};
