import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { Activity } from '../messages/message.events';
import { RecipientRef } from '../recipients/refs';

export const TriggerSource = z.object({
  type: z.enum(['api', 'workflow', 'schedule', 'test', 'bulk', 'broadcast', 'source']),
  /** For workflow-triggered runs: the run that triggered it. */
  workflow_recipient_run_id: z.string().nullable().optional(),
  /** For scheduled runs: the schedule and the occurrence (its local date-time). */
  schedule_id: z.string().nullable().optional(),
  occurrence: z.string().nullable().optional(),
  /** For broadcast runs: the broadcast and its send (ADR 0172). */
  broadcast_key: z.string().nullable().optional(),
  broadcast_send_id: z.string().nullable().optional(),
  /** The audience a broadcast went to; null for all users. */
  audience_key: z.string().nullable().optional(),
  /** For runs triggered by an event a source received (ADR 0195): the source and its log entry. */
  source_key: z.string().nullable().optional(),
  source_log_id: z.string().nullable().optional(),
});

export const TriggerSettings = z.object({ sandbox_mode: z.boolean().optional(), skip_delay: z.boolean().optional() });

/** The workflow as it was when triggered: runs execute this version to the end. */
export const WorkflowSnapshot = z.object({
  key: z.string(),
  version: z.string().nullable(),
  categories: z.array(z.string()),
  steps: z.array(z.record(z.string(), z.unknown())),
  conditions: z.unknown().nullable(),
  settings: z.record(z.string(), z.unknown()).nullable(),
  trigger_frequency: z.enum(['every_trigger', 'once_per_recipient', 'once_per_recipient_per_tenant']),
});
export type WorkflowSnapshotT = z.infer<typeof WorkflowSnapshot>;

/** Stream workflow_run-<env>-<id>: one trigger, for every recipient. */
export const WorkflowTriggered = defineEvent(
  'WorkflowTriggered',
  1,
  z.object({
    workflow_run_id: z.uuid(),
    workflow: WorkflowSnapshot,
    actor: RecipientRef.nullable(),
    recipients: z.array(RecipientRef),
    tenant: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    cancellation_key: z.string().nullable(),
    settings: TriggerSettings,
    trigger_source: TriggerSource,
    triggered_at: z.string(),
    /**
     * True when the trigger's runs (RunEnqueued) were appended with it, in the same atomic append
     * (schedules and broadcasts, ADR 0235): the fan-out leaves it alone. Absent otherwise.
     */
    runs_enqueued: z.boolean().optional(),
  }),
  {
    // Trigger data can hold personal data (ADR 0199). It is one payload for every recipient: sealed
    // for the recipient when there is exactly one user, left in clear when it is shared.
    personal: {
      subject: (d) => (d.recipients.length === 1 && d.recipients[0].type === 'user' ? d.recipients[0].id : null),
      fields: ['data'],
    },
  },
);

/** Stream run-<env>-<run id>: one recipient's run. */
export const RunEnqueued = defineEvent(
  'RunEnqueued',
  1,
  z.object({
    run_id: z.uuid(),
    workflow_run_id: z.uuid(),
    workflow_key: z.string(),
    recipient: RecipientRef,
    actor: RecipientRef.nullable(),
    tenant: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    cancellation_key: z.string().nullable(),
    trigger_source: TriggerSource,
    /**
     * Log position of the trigger: a cancellation recorded after it applies to this run. Empty when
     * the run was appended with its trigger (ADR 0235): the run's own position then stands for it.
     */
    trigger_position: z.string(),
    /** Set when the run fans out from an object recipient to one of its subscribers. */
    subscribed_to: RecipientRef.nullable(),
    enqueued_at: z.string(),
  }),
  // One recipient's copy of the trigger data: sealed for that user (ADR 0199); an object recipient has no key.
  { personal: { subject: (d) => (d.recipient.type === 'user' ? d.recipient.id : null), fields: ['data'] } },
);

/** One condition as evaluated: what the variable held, what it was compared to, the result (ADR 0219). */
export const ConditionEvaluation = z.object({
  variable: z.string(),
  operator: z.string(),
  argument: z.string().nullable(),
  value: z.unknown(),
  compared_to: z.unknown(),
  result: z.boolean(),
});

/** A condition group as evaluated: `all` or `any` of its members (a member of `any` may be an `all` group). */
export const ConditionGroupTrace = z.object({
  holds: z.boolean(),
  mode: z.enum(['all', 'any']),
  conditions: z.array(z.union([ConditionEvaluation, z.object({ all: z.array(ConditionEvaluation), holds: z.boolean() })])),
});

const PreferenceLayerName = z.enum(['environment_default', 'tenant_default', 'recipient_default', 'recipient_in_tenant']);
const PreferenceSettingCheck = z.object({
  setting: z.string(),
  layer: PreferenceLayerName.nullable(),
  value: z.unknown(),
  result: z.enum(['allowed', 'opted_out', 'conditions_not_met']),
  conditions: z.array(ConditionEvaluation).optional(),
});

/** What a preference decision was made from: every setting consulted, the layer it came from, which one blocked. */
export const PreferenceTrace = z.object({
  commercial: z.boolean(),
  override_preferences: z.boolean(),
  channel_type: z.string().nullable(),
  checked: z.array(PreferenceSettingCheck),
  decided_by: PreferenceSettingCheck.nullable(),
});

/** A throttle step's view of its window (ADR 0239): how many runs had passed in it, against the limit. */
export const ThrottleTrace = z.object({
  key: z.string(),
  limit: z.number().int(),
  window_ms: z.number(),
  /** Passes after this instant counted. */
  window_start: z.string(),
  passes_in_window: z.number().int(),
  result: z.enum(['passed', 'limited']),
  /** The run was decided before (the step executed again): the result is the recorded one, the count includes it. */
  repeated: z.boolean().optional(),
});

/** A batch step's view of its batch (ADR 0239): the window it joined or opened, the items in it after this one. */
export const BatchTrace = z.object({
  key: z.string().nullable(),
  batch_id: z.string().nullable(),
  role: z.enum(['owner', 'leading', 'joined']).nullable(),
  mode: z.enum(['accumulate', 'flush_leading']).nullable(),
  window_type: z.enum(['fixed', 'sliding']).nullable(),
  opened_at: z.string().nullable(),
  /** When the window's timer is due (after any extension by this item). */
  closes_at: z.string().nullable(),
  extend_until: z.string().nullable(),
  /** Items in the batch once this one was added (the flush's total when the run resumed with it). */
  items: z.number().int(),
  max_items: z.number().int().nullable(),
  /** The batch closed in this decision: by its items limit, or a window already over. */
  closed: z.enum(['window', 'max_items']).nullable(),
});

/**
 * The channel data or address a channel step looked for (ADR 0239): present or missing, and which
 * entries were used, as references (`sha256:` and 12 hex digits of each token or connection id),
 * never the values.
 */
export const ChannelDataTrace = z.object({
  channel_id: z.string(),
  kind: z.enum(['tokens', 'player_ids', 'connections', 'email', 'phone_number', 'none']),
  present: z.boolean(),
  /** Where it came from: the recipient's channel data, their properties, or the step's override (`to_address`, `to_number`). */
  source: z.enum(['channel_data', 'recipient', 'override', 'none']),
  count: z.number().int(),
  refs: z.array(z.string()),
});

/**
 * The suppression list entry that skipped a channel step (ADR 0181): why the address is on the
 * list, and the receipt that put it there (the message it was about, the provider that sent it).
 */
export const SuppressionTrace = z.object({
  reason: z.string(),
  /** The message whose bounce or complaint suppressed the address; null when added by hand. */
  message_id: z.string().nullable(),
  /** The receipt's provider (`sendgrid`, `smtp`, ...); null when added by hand. */
  source: z.string().nullable(),
  detail: z.string().nullable(),
  suppressed_at: z.string(),
});

/** What paused a step (ADR 0239): the timer's due time and what set it (delay, send window, batch window). */
export const PauseTrace = z.object({
  reason: z.enum(['delay', 'batch', 'throttle', 'wait_for_event', 'fetch_retry', 'send_window']),
  /** When the run's (or the batch's) timer is due; null when it waits for something else. */
  resume_at: z.string().nullable(),
  delay: z
    .object({
      delay_for: z.unknown().nullable(),
      delay_until_field_path: z.string().nullable(),
      /** What the field held (a timestamp), when a path was set. */
      field_value: z.unknown().optional(),
    })
    .optional(),
  send_window: z.object({ timezone: z.string(), windows: z.array(z.record(z.string(), z.unknown())), opens_at: z.string() }).optional(),
});

/**
 * The inputs of a decision (ADR 0219): the conditions it evaluated and the preferences it applied.
 * Sealed for `user_id` (the run's recipient when a user); an object recipient's stay in clear.
 */
export const DecisionInputs = z.object({
  user_id: z.string().nullable(),
  /** The step's own (or the workflow's) conditions. */
  conditions: ConditionGroupTrace.optional(),
  /** A branch step: each branch's conditions, up to the one taken. */
  branches: z.array(z.object({ name: z.string().nullable(), conditions: ConditionGroupTrace.nullable() })).optional(),
  preferences: PreferenceTrace.optional(),
  /** A throttle step: the window it counted (ADR 0239). */
  throttle: ThrottleTrace.optional(),
  /** A batch step: the batch it joined, opened or resumed with. */
  batch: BatchTrace.optional(),
  /** A channel step: the channel data or address it looked for. */
  channel_data: ChannelDataTrace.optional(),
  /** On RunPaused: what set the pause. */
  pause: PauseTrace.optional(),
  /** A channel step skipped for a suppressed address: the entry, and the receipt behind it. */
  suppression: SuppressionTrace.optional(),
});
export type DecisionInputsT = z.infer<typeof DecisionInputs>;
export type ThrottleTraceT = z.infer<typeof ThrottleTrace>;
export type BatchTraceT = z.infer<typeof BatchTrace>;
export type ChannelDataTraceT = z.infer<typeof ChannelDataTrace>;
export type SuppressionTraceT = z.infer<typeof SuppressionTrace>;
export type PauseTraceT = z.infer<typeof PauseTrace>;

const sealedInputs = { subject: (d: { inputs?: DecisionInputsT | null }) => d.inputs?.user_id ?? null, fields: ['inputs'] } as const;

export const StepStarted = defineEvent(
  'StepStarted',
  1,
  z.object({ run_id: z.uuid(), step_ref: z.string(), step_type: z.string(), at: z.string() }),
);

/** A step's outcome: StepCompleted's data, and RunCompleted's `step` when the step ended the run (ADR 0233). */
const StepCompletion = z.object({
  run_id: z.uuid(),
  step_ref: z.string(),
  step_type: z.string(),
  status: z.enum(['ok', 'skipped', 'error']),
  /** Why a step was skipped or failed: preference, condition, missing channel data, ... */
  reason: z.string().nullable(),
  output: z.record(z.string(), z.unknown()).nullable(),
  attempt: z.number().int().nullable(),
  /** Where the run goes next: a path through the (nested) steps; null when the run ends. */
  next_path: z.array(z.number().int()).nullable(),
  at: z.string(),
  /** What the step decided from (conditions, preferences); absent on events written before ADR 0219. */
  inputs: DecisionInputs.nullable().optional(),
});

export const StepCompleted = defineEvent('StepCompleted', 1, StepCompletion, { personal: sealedInputs });

export const RunPaused = defineEvent(
  'RunPaused',
  1,
  z.object({
    run_id: z.uuid(),
    step_ref: z.string(),
    reason: z.enum(['delay', 'batch', 'throttle', 'wait_for_event', 'fetch_retry', 'send_window']),
    timer_id: z.string().nullable(),
    resume_at: z.string().nullable(),
    waiting_for: z.record(z.string(), z.unknown()).nullable(),
    at: z.string(),
    /** What the pause was decided from: its timer's due time and what set it, and the step's inputs so far (ADR 0239). */
    inputs: DecisionInputs.nullable().optional(),
  }),
  { personal: sealedInputs },
);

/** Timers live in any stream that needs one (runs, messages, batches); the worker fires them when due. */
export const TimerScheduled = defineEvent(
  'TimerScheduled',
  1,
  z.object({ timer_id: z.string(), fire_at: z.string(), purpose: z.string() }),
);
export const TimerFired = defineEvent('TimerFired', 1, z.object({ timer_id: z.string(), fired_at: z.string() }));

export const RunResumed = defineEvent(
  'RunResumed',
  1,
  z.object({
    run_id: z.uuid(),
    step_ref: z.string(),
    cause: z.enum(['timer', 'batch_closed', 'event_matched', 'event_timeout']),
    /** Batch flush: the activities and actors the message carries. */
    batch: z
      .object({
        activities: z.array(Activity),
        actors: z.array(RecipientRef),
        total_activities: z.number().int(),
        total_actors: z.number().int(),
      })
      .nullable(),
    /** event_matched: what happened (`workflow.completed`, `message.seen`, ...) as match conditions saw it under `event`. */
    event: z.record(z.string(), z.unknown()).nullable().optional(),
    at: z.string(),
  }),
  // The batch's activities carry other triggers' data for this recipient: sealed as the run's RunEnqueued was.
  { personal: { subject: 'stream', fields: ['batch'] } },
);

export const RunDataUpdated = defineEvent(
  'RunDataUpdated',
  1,
  z.object({ run_id: z.uuid(), step_ref: z.string(), data: z.record(z.string(), z.unknown()), at: z.string() }),
  { personal: { subject: 'stream', fields: ['data'] } },
);

/**
 * Set on a run's RunCompleted or RunCancelled when the run never paused (ADR 0257): it then never
 * scheduled a timer nor waited for an event, so nothing of it is pending anywhere. Absent when it
 * did, and on events written before.
 */
const NeverPaused = z.literal(true).optional();

export const RunCancelled = defineEvent(
  'RunCancelled',
  1,
  z.object({ run_id: z.uuid(), reason: z.string(), at: z.string(), never_paused: NeverPaused }),
);

export const RunCompleted = defineEvent(
  'RunCompleted',
  1,
  z.object({
    run_id: z.uuid(),
    /** ended: every step ran; halted: a step stopped it (throttle, condition, batched into another run, ...). */
    outcome: z.enum(['ended', 'halted']),
    reason: z.string().nullable(),
    at: z.string(),
    /** Halted by the workflow's own conditions: each condition as evaluated (ADR 0219). */
    inputs: DecisionInputs.nullable().optional(),
    /**
     * The step that ended the run, when one did (ADR 0233): the run's last StepCompleted, recorded
     * in this event instead of one of its own. Absent on events written before it, and when the run
     * ended without a step (workflow conditions, cancelled by its end).
     */
    step: StepCompletion.omit({ run_id: true }).optional(),
    never_paused: NeverPaused,
  }),
  {
    personal: {
      subject: (d) => d.inputs?.user_id ?? d.step?.inputs?.user_id ?? null,
      fields: ['inputs', 'step.inputs'],
    },
  },
);

/** Stream cancellation-<env>-<workflow>-<key>. */
export const CancellationRequested = defineEvent(
  'CancellationRequested',
  1,
  z.object({
    workflow_key: z.string(),
    cancellation_key: z.string(),
    recipients: z.array(RecipientRef).nullable(),
    requested_at: z.string(),
  }),
);

export const runEventContracts = [
  WorkflowTriggered,
  RunEnqueued,
  StepStarted,
  StepCompleted,
  RunPaused,
  TimerScheduled,
  TimerFired,
  RunResumed,
  RunDataUpdated,
  RunCancelled,
  RunCompleted,
  CancellationRequested,
] as const;
