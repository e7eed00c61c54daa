import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { Activity } from '../messages/message.events';
import { RecipientRef } from '../recipients/refs';

/** Stream batch-<env>-<workflow>-<step>-<recipient>-<batch key>: one recipient's batches of one step. */
export const BatchOpened = defineEvent(
  'BatchOpened',
  1,
  z.object({
    batch_id: z.uuid(),
    /** The run that continues with every activity when the batch closes (null until one exists). */
    owner_run_id: z.uuid().nullable(),
    /** flush_leading: the run that was sent at once. */
    leading_run_id: z.uuid().nullable(),
    opened_at: z.string(),
    closes_at: z.string(),
    /** Sliding windows never extend past this. */
    extend_until: z.string().nullable(),
    timer_id: z.string(),
  }),
);

export const BatchItemAdded = defineEvent(
  'BatchItemAdded',
  1,
  z.object({
    batch_id: z.uuid(),
    run_id: z.uuid(),
    activity: Activity,
    role: z.enum(['owner', 'leading', 'joined']),
    added_at: z.string(),
    /** The batch's recipient when a user: the activity (its trigger data) is sealed for them (ADR 0221). Absent before. */
    user_id: z.string().nullable().optional(),
  }),
  { personal: { subject: (d) => d.user_id ?? null, fields: ['activity'] } },
);

export const BatchWindowExtended = defineEvent(
  'BatchWindowExtended',
  1,
  z.object({ batch_id: z.uuid(), closes_at: z.string(), timer_id: z.string() }),
);

export const BatchClosed = defineEvent(
  'BatchClosed',
  1,
  z.object({
    batch_id: z.uuid(),
    owner_run_id: z.uuid().nullable(),
    reason: z.enum(['window', 'max_items']),
    activities: z.array(Activity),
    actors: z.array(RecipientRef),
    total_activities: z.number().int(),
    total_actors: z.number().int(),
    closed_at: z.string(),
    /** The batch's recipient when a user: the activities are sealed for them (ADR 0221). Absent before. */
    user_id: z.string().nullable().optional(),
  }),
  { personal: { subject: (d) => d.user_id ?? null, fields: ['activities'] } },
);

/** Stream throttle-<env>-<workflow>-<step>-<recipient>-<throttle key>. */
export const ThrottlePassed = defineEvent('ThrottlePassed', 1, z.object({ run_id: z.uuid(), at: z.string() }));
export const ThrottleLimited = defineEvent('ThrottleLimited', 1, z.object({ run_id: z.uuid(), at: z.string() }));

/** Stream frequency-<env>-<workflow>-<recipient>[-<tenant>]: once_per_recipient workflows. */
export const FrequencyClaimed = defineEvent(
  'FrequencyClaimed',
  1,
  z.object({ run_id: z.uuid(), workflow_run_id: z.uuid(), at: z.string() }),
);

export const batchEventContracts = [
  BatchOpened,
  BatchItemAdded,
  BatchWindowExtended,
  BatchClosed,
  ThrottlePassed,
  ThrottleLimited,
  FrequencyClaimed,
] as const;
