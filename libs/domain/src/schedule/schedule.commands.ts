import type { RecipientRefT } from '@notify/contracts';
import type { RepeatRule } from './recurrence';

export interface ScheduleDefinition {
  workflow: string;
  recipient: RecipientRefT;
  actor: RecipientRefT | null;
  tenant: string | null;
  data: Record<string, unknown> | null;
  repeats: RepeatRule[];
  scheduledAt: string | null;
  endingAt: string | null;
}

/** Fields an update may change; absent ones stay. */
export type SchedulePatch = Partial<Pick<ScheduleDefinition, 'actor' | 'tenant' | 'data' | 'repeats' | 'scheduledAt' | 'endingAt'>>;

export type ScheduleCommand =
  | { type: 'CreateSchedule'; scheduleId: string; definition: ScheduleDefinition; now: string }
  | { type: 'UpdateSchedule'; scheduleId: string; patch: SchedulePatch; now: string }
  | { type: 'DeleteSchedule'; scheduleId: string; reason: 'requested' | 'recipient_deleted'; now: string }
  /**
   * Decide every occurrence due at `now` that has not been decided: those older than the
   * catch-up window are skipped as missed, the others trigger the workflow (or are skipped with
   * `skipReason`). At most `limit` at once; the rest on the next call.
   */
  | {
      type: 'FireDueOccurrences';
      scheduleId: string;
      now: string;
      timeZone: string;
      catchUpMs: number;
      /**
       * Why the workflow cannot be triggered now (workflow_missing, workflow_inactive, the
       * trigger's own refusal), looked up before deciding; null when it can.
       */
      skipReason: string | null;
      /** The workflow run an occurrence triggers: a deterministic id, so a retry triggers the same one. */
      runIdFor: (occurrence: string) => string;
      limit: number;
    };
