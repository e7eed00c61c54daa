import { z } from 'zod';
import { ChannelKey, ChannelType } from './channels';
import { Condition, ConditionGroup, Duration, SendWindows } from './conditions';
import { RequestTemplate, templateSchemaFor } from './templates';

/**
 * Every step kind of the management API, checked field by field. What can be known from the
 * request alone is checked here (shapes, ranges, exclusive fields); what needs other resources
 * (does the channel exist, is the Liquid valid) is checked by the workflow validator.
 */

export const StepRef = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters, digits, _ and -');

const common = {
  ref: StepRef,
  name: z.string().max(255).nullable().optional(),
  description: z.string().max(280).nullable().optional(),
};
const withConditions = { ...common, conditions: ConditionGroup.nullable().optional() };

/** A step as stored: its kind and ref, the rest checked by the kind's schema. */
export type WorkflowStepT = { type: string; ref: string } & Record<string, unknown>;

const FieldPath = z.string().min(1).max(1000);
const JsonOrLiquid = z.string().min(1, 'must not be empty').max(100_000);

const channelStep = z
  .strictObject({
    ...withConditions,
    type: z.literal('channel'),
    channel_key: ChannelKey.nullable().optional(),
    channel_group_key: ChannelKey.nullable().optional(),
    /** Optional in requests: when absent, the channel's own type decides the template's shape. */
    channel_type: ChannelType.optional(),
    channel_overrides: z.record(z.string(), z.unknown()).nullable().optional(),
    send_windows: SendWindows.nullable().optional(),
    template: z.record(z.string(), z.unknown()).optional(),
    guide_key: z.string().max(255).nullable().optional(),
  })
  .superRefine((step, ctx) => {
    const viaChannel = !!step.channel_key;
    const viaGroup = !!step.channel_group_key;
    if (viaChannel === viaGroup)
      ctx.addIssue({ code: 'custom', path: ['channel_key'], message: 'exactly one of channel_key and channel_group_key must be set' });
    if (step.channel_type === 'in_app_guide') {
      if (!step.guide_key) ctx.addIssue({ code: 'custom', path: ['guide_key'], message: 'is required for in-app guide steps' });
      return;
    }
    if (!step.template) {
      ctx.addIssue({ code: 'custom', path: ['template'], message: 'is required' });
      return;
    }
    const schema = step.channel_type ? templateSchemaFor[step.channel_type] : null;
    if (!schema) return;
    const parsed = schema.safeParse(step.template);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ['template', ...issue.path] } as never);
  });

const delayStep = z.strictObject({
  ...withConditions,
  type: z.literal('delay'),
  settings: z
    .strictObject({ delay_for: Duration.nullable().optional(), delay_until_field_path: FieldPath.optional() })
    .refine((s) => !!s.delay_for || !!s.delay_until_field_path, { message: 'one of delay_for and delay_until_field_path is required' }),
});

const batchStep = z.strictObject({
  ...common,
  type: z.literal('batch'),
  settings: z
    .strictObject({
      batch_execution_mode: z.enum(['accumulate', 'flush_leading']).nullable().optional(),
      batch_items_max_limit: z.number().int().min(2).max(1000).nullable().optional(),
      batch_items_render_limit: z.number().int().min(1).max(100).nullable().optional(),
      batch_key: FieldPath.nullable().optional(),
      batch_order: z.enum(['asc', 'desc']).nullable().optional(),
      batch_until_field_path: FieldPath.nullable().optional(),
      batch_window: Duration.nullable().optional(),
      batch_window_extension_limit: Duration.nullable().optional(),
      batch_window_type: z.enum(['fixed', 'sliding']).nullable().optional(),
      workflow_version_mode: z.enum(['pinned', 'latest']).nullable().optional(),
    })
    .superRefine((s, ctx) => {
      if (!s.batch_window && !s.batch_until_field_path)
        ctx.addIssue({ code: 'custom', path: ['batch_window'], message: 'one of batch_window and batch_until_field_path is required' });
      if (s.batch_window_extension_limit && s.batch_window_type !== 'sliding') {
        ctx.addIssue({ code: 'custom', path: ['batch_window_extension_limit'], message: 'applies only to a sliding batch window' });
      }
      if (s.batch_window_extension_limit && s.batch_window && toSeconds(s.batch_window_extension_limit) < toSeconds(s.batch_window)) {
        ctx.addIssue({ code: 'custom', path: ['batch_window_extension_limit'], message: 'must be at least as long as batch_window' });
      }
    }),
});

const fetchStep = z.strictObject({ ...withConditions, type: z.literal('http_fetch'), settings: RequestTemplate });

const throttleStep = z.strictObject({
  ...withConditions,
  type: z.literal('throttle'),
  settings: z
    .strictObject({
      throttle_key: FieldPath.optional(),
      throttle_limit: z.number().int().min(1).max(1000).optional(),
      throttle_window: Duration.optional(),
      throttle_window_field_path: FieldPath.optional(),
    })
    .refine((s) => !!s.throttle_window || !!s.throttle_window_field_path, {
      message: 'one of throttle_window and throttle_window_field_path is required',
    }),
});

const branchStep = z.strictObject({
  ...common,
  type: z.literal('branch'),
  branches: z
    .array(
      z.strictObject({
        name: z.string().max(255).optional(),
        conditions: ConditionGroup.nullable().optional(),
        get steps() {
          return z.array(WorkflowStep).max(100).optional();
        },
        terminates: z.boolean().optional(),
      }),
    )
    .min(2, 'needs at least one conditional branch and a default branch')
    .max(20)
    .superRefine((branches, ctx) => {
      branches.forEach((b, i) => {
        const isLast = i === branches.length - 1;
        if (isLast && b.conditions)
          ctx.addIssue({
            code: 'custom',
            path: [i, 'conditions'],
            message: 'the last branch is the default branch and takes no conditions',
          });
        if (!isLast && !b.conditions)
          ctx.addIssue({ code: 'custom', path: [i, 'conditions'], message: 'every branch but the last (default) one needs conditions' });
      });
    }),
});

/** Up to one decimal place, 0-100; sent as a number, stored and returned as a decimal string. */
const Percentage = z
  .union([z.number(), z.string().regex(/^\d{1,3}(\.\d)?$/, 'must be a number with at most one decimal place')])
  .transform((v) => Number(v))
  .pipe(
    z
      .number()
      .min(0)
      .max(100)
      .refine((n) => Math.round(n * 10) === n * 10, 'must have at most one decimal place'),
  )
  .transform((n) => String(n));

const randomCohortStep = z.strictObject({
  ...common,
  type: z.literal('random_cohort'),
  cohort_key: FieldPath.optional(),
  cohort_branches: z
    .array(
      z.strictObject({
        name: z.string().max(255).optional(),
        percentage: Percentage,
        get steps() {
          return z.array(WorkflowStep).max(100).optional();
        },
        terminates: z.boolean().optional(),
      }),
    )
    .min(2, 'needs between 2 and 10 cohort branches')
    .max(10, 'needs between 2 and 10 cohort branches')
    .refine((branches) => Math.round(branches.reduce((sum, b) => sum + Number(b.percentage) * 10, 0)) === 1000, {
      message: 'percentages must sum to 100',
    }),
});

const triggerWorkflowStep = z.strictObject({
  ...withConditions,
  type: z.literal('trigger_workflow'),
  settings: z.strictObject({
    workflow_key: z.string().min(1, 'is required').max(255),
    recipients: JsonOrLiquid.optional(),
    actor: JsonOrLiquid.optional(),
    tenant: JsonOrLiquid.optional(),
    data: JsonOrLiquid.optional(),
    cancellation_key: JsonOrLiquid.optional(),
  }),
});

const gid = (collection: string | null) =>
  z
    .string()
    .regex(
      collection ? new RegExp(`^gid://Object/\\${collection}/[^/\\s]+$`) : /^gid:\/\/Object\/[^/\s]+\/[^/\s]+$/,
      `must look like gid://Object/${collection ?? '{collection}'}/{id}`,
    );

const recipientUpdate = (collection: '$users' | '$tenants') =>
  z
    .strictObject({
      recipient_mode: z.enum(['current', 'reference']),
      recipient_gid: gid(collection).optional(),
      update_properties: JsonOrLiquid,
    })
    .superRefine((s, ctx) => {
      if (s.recipient_mode === 'reference' && !s.recipient_gid)
        ctx.addIssue({ code: 'custom', path: ['recipient_gid'], message: "is required when recipient_mode is 'reference'" });
    });

const updateUserStep = z.strictObject({ ...withConditions, type: z.literal('update_user'), settings: recipientUpdate('$users') });
const updateTenantStep = z.strictObject({ ...withConditions, type: z.literal('update_tenant'), settings: recipientUpdate('$tenants') });
const updateObjectStep = z.strictObject({
  ...withConditions,
  type: z.literal('update_object'),
  settings: z.strictObject({ recipient_gid: gid(null), update_properties: JsonOrLiquid }),
});
const updateDataStep = z.strictObject({
  ...withConditions,
  type: z.literal('update_data'),
  settings: z.strictObject({ data: JsonOrLiquid }),
});

const MatchConditions = z
  .array(z.strictObject({ operator: z.literal('and').optional(), conditions: z.array(Condition).min(1).max(50) }))
  .max(20);
const waitCommon = {
  expires_after: Duration.optional(),
  on_match: z.enum(['continue', 'halt']).optional(),
  on_timeout: z.enum(['continue', 'halt']).optional(),
};
const WaitForEventSettings = z.union([
  z.strictObject({
    ...waitCommon,
    event: z.strictObject({
      event_type: z.literal('integration_source'),
      integration_source_key: z.string().min(1).max(255),
      event_key: z.string().min(1).max(255),
    }),
    match_conditions: MatchConditions.optional(),
  }),
  z.strictObject({
    ...waitCommon,
    event: z.strictObject({
      event_type: z.literal('message'),
      event_key: z.enum([
        'created',
        'queued',
        'sent',
        'not_sent',
        'delivered',
        'delivery_attempted',
        'undelivered',
        'bounced',
        'read',
        'unread',
        'seen',
        'unseen',
        'archived',
        'unarchived',
        'interacted',
        'link_clicked',
      ]),
      source_type: z.enum(['workflow', 'broadcast', 'guide']),
      source_key: z.string().min(1).max(255),
    }),
    match_conditions: MatchConditions.min(1, 'is required when waiting for a message event'),
  }),
  z.strictObject({
    ...waitCommon,
    event: z.strictObject({
      event_type: z.literal('workflow'),
      event_key: z.enum(['started', 'completed']),
      source_key: z.string().min(1).max(255),
    }),
    match_conditions: MatchConditions.min(1, 'is required when waiting for a workflow event'),
  }),
  z.strictObject({
    ...waitCommon,
    event: z.strictObject({
      event_type: z.literal('audience'),
      event_key: z.enum(['enter', 'exit']),
      audience_key: z.string().min(1).max(255),
    }),
    match_conditions: MatchConditions.optional(),
  }),
  z.strictObject({
    ...waitCommon,
    event: z.strictObject({ event_type: z.literal('recipient'), event_key: z.literal('updated').optional() }),
    match_conditions: MatchConditions.optional(),
  }),
]);
const waitForEventStep = z.strictObject({ ...withConditions, type: z.literal('wait_for_event'), settings: WaitForEventSettings });

const aiAgentStep = z.strictObject({
  ...withConditions,
  type: z.literal('ai_agent'),
  settings: z
    .strictObject({
      model: z.string().regex(/^[a-z0-9_-]+:[A-Za-z0-9._-]+$/, 'must be provider:model'),
      request_prompt: z.string().min(1).max(100_000),
      response_type: z.enum(['text', 'json']),
      response_schema: z.string().max(100_000).nullable().optional(),
      halt_on_error: z.boolean().nullable().optional(),
      web_search_enabled: z.boolean().nullable().optional(),
    })
    .superRefine((s, ctx) => {
      if (s.response_type === 'json' && !s.response_schema)
        ctx.addIssue({ code: 'custom', path: ['response_schema'], message: 'is required when response_type is json' });
      if (s.response_type === 'text' && s.response_schema)
        ctx.addIssue({ code: 'custom', path: ['response_schema'], message: 'must not be set when response_type is text' });
    }),
});

export const STEP_TYPES = [
  'channel',
  'delay',
  'batch',
  'http_fetch',
  'throttle',
  'branch',
  'random_cohort',
  'trigger_workflow',
  'update_user',
  'update_object',
  'update_tenant',
  'update_data',
  'wait_for_event',
  'ai_agent',
] as const;

export const WorkflowStep: z.ZodType<WorkflowStepT> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      channelStep,
      delayStep,
      batchStep,
      fetchStep,
      throttleStep,
      branchStep,
      randomCohortStep,
      triggerWorkflowStep,
      updateUserStep,
      updateObjectStep,
      updateTenantStep,
      updateDataStep,
      waitForEventStep,
      aiAgentStep,
    ]),
  )
  .meta({ id: 'WorkflowStep' }) as unknown as z.ZodType<WorkflowStepT>;

function toSeconds(d: { unit: string; value: number }): number {
  const unit = { seconds: 1, minutes: 60, hours: 3600, days: 86_400, weeks: 604_800, months: 2_592_000 }[d.unit] ?? 1;
  return d.value * unit;
}

/** Every step of a workflow, nested ones included, with the path to it. */
export function walkSteps(
  steps: readonly WorkflowStepT[],
  path: (string | number)[] = ['steps'],
): { step: WorkflowStepT; path: (string | number)[] }[] {
  const out: { step: WorkflowStepT; path: (string | number)[] }[] = [];
  steps.forEach((step, i) => {
    const here = [...path, i];
    out.push({ step, path: here });
    for (const field of ['branches', 'cohort_branches'] as const) {
      const branches = step[field];
      if (!Array.isArray(branches)) continue;
      branches.forEach((branch: { steps?: WorkflowStepT[] }, b: number) => {
        if (Array.isArray(branch?.steps)) out.push(...walkSteps(branch.steps, [...here, field, b, 'steps']));
      });
    }
  });
  return out;
}

/** Refuses a second step with a ref already used anywhere in the steps (nested ones included), naming both. */
export function uniqueStepRefs(what: string) {
  return (value: { steps: readonly WorkflowStepT[] }, ctx: z.RefinementCtx): void => {
    const seen = new Map<string, string>();
    for (const { step, path } of walkSteps(value.steps)) {
      const where = path.join('.');
      if (seen.has(step.ref))
        ctx.addIssue({
          code: 'custom',
          path: [...path, 'ref'],
          message: `duplicates the ref of ${seen.get(step.ref)}; step refs must be unique in a ${what}`,
        });
      else seen.set(step.ref, where);
    }
  };
}
