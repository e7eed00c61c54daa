import {
  ChannelTypeT,
  ResourceErrorT,
  templateFields,
  templateSchemaFor,
  walkSteps,
  WorkflowRequestT,
  WorkflowStepT,
} from '@notify/contracts';
import { fieldErrors } from '../validation/zod-errors';
import { TemplateChecker } from './template-checker';

/** Other resources a workflow refers to, looked up in the environment it is saved in. */
export interface WorkflowReferences {
  channel(key: string): Promise<{ type: ChannelTypeT } | undefined>;
  /** Whether a channel of this key exists at all (maybe without settings in this environment), for messages. */
  channelExists?(key: string): Promise<boolean>;
  channelGroup(key: string): Promise<{ channel_type: ChannelTypeT } | undefined>;
  emailLayout(key: string): Promise<boolean>;
  partial(key: string): Promise<boolean>;
  /** Whether a goal of this key exists (not archived) in the environment. */
  goal?(key: string): Promise<boolean>;
}

export type WorkflowContent = Record<string, unknown> & { name: string; steps: WorkflowStepT[] };

/** The workflow's data as stored: read-only echoes dropped, defaults filled, so equal workflows hash equal. */
export function normalizeWorkflow(request: WorkflowRequestT): WorkflowContent {
  return {
    name: request.name,
    description: request.description ?? null,
    categories: request.categories ?? [],
    tags: request.tags ?? [],
    conditions: request.conditions ?? null,
    settings: {
      is_commercial: request.settings?.is_commercial ?? false,
      override_preferences: request.settings?.override_preferences ?? false,
    },
    steps: request.steps,
    trigger_data_json_schema: request.trigger_data_json_schema ?? null,
    trigger_frequency: request.trigger_frequency ?? 'every_trigger',
    // Only when given, so that the sha of a workflow without one is what it always was.
    ...(request.goal_attachment ? { goal_attachment: request.goal_attachment } : {}),
  };
}

/** Settings of function steps that hold Liquid. */
const LIQUID_SETTINGS: Record<string, string[]> = {
  http_fetch: ['url', 'body', 'headers', 'query_params'],
  trigger_workflow: ['workflow_key', 'recipients', 'actor', 'tenant', 'data', 'cancellation_key'],
  update_user: ['update_properties'],
  update_tenant: ['update_properties'],
  update_object: ['update_properties'],
  update_data: ['data'],
  ai_agent: ['request_prompt'],
};

const at = (path: (string | number)[]) => path.join('.');

/**
 * What makes a well-formed workflow unusable in an environment: a channel that is not there or
 * of another type than its template, a missing layout or partial, Liquid that does not parse.
 * Such a workflow is still saved, with valid: false and these errors, and cannot be activated.
 * Channel steps get the `channel_type` of their channel, as Knock returns it.
 */
export async function checkWorkflow(
  content: WorkflowContent,
  refs: WorkflowReferences,
  templates: TemplateChecker,
): Promise<{ content: WorkflowContent; errors: ResourceErrorT[] }> {
  const errors: ResourceErrorT[] = [];
  const liquid = (source: unknown, path: (string | number)[]) => {
    if (typeof source !== 'string' || source === '') return;
    for (const problem of templates.check(source)) {
      errors.push({
        field: at(path),
        message: problem.line ? `line ${problem.line}: ${problem.message}` : problem.message,
        type: 'template',
      });
    }
  };
  const steps = structuredClone(content.steps);
  for (const { step, path } of walkSteps(steps)) {
    if (step.type === 'channel') {
      await checkChannelStep(step, path, refs, errors, liquid);
      continue;
    }
    if (step.type === 'ai_agent')
      // Accepted by the reference's shape, but there is no AI provider here to run it: the
      // workflow is saved invalid (it cannot be activated or triggered) rather than failing its runs.
      errors.push({
        field: at([...path, 'type']),
        message: 'ai_agent steps are not supported by this service (no AI provider); remove the step to activate the workflow',
        type: 'unsupported_step',
      });
    for (const field of LIQUID_SETTINGS[step.type] ?? [])
      liquid((step.settings as Record<string, unknown> | undefined)?.[field], [...path, 'settings', field]);
  }
  const attachment = content.goal_attachment as { goal_key: string } | undefined;
  if (attachment && refs.goal && !(await refs.goal(attachment.goal_key)))
    errors.push({
      field: 'goal_attachment.goal_key',
      message: `no goal ${attachment.goal_key} exists in this environment`,
      type: 'reference',
    });
  return { content: { ...content, steps }, errors };
}

/** Why a channel is not usable here: none of that key, or one without settings in this environment. */
export async function missingChannelMessage(key: string, refs: Pick<WorkflowReferences, 'channelExists'>): Promise<string> {
  if (refs.channelExists && (await refs.channelExists(key)))
    return `channel ${key} has no settings in this environment: add them to its environment_settings (PUT /v1/channels/${key})`;
  return `no channel ${key} is configured in this environment`;
}

async function checkChannelStep(
  step: WorkflowStepT,
  path: (string | number)[],
  refs: WorkflowReferences,
  errors: ResourceErrorT[],
  liquid: (source: unknown, path: (string | number)[]) => void,
): Promise<void> {
  let type: ChannelTypeT | undefined;
  if (typeof step.channel_key === 'string' && step.channel_key) {
    const channel = await refs.channel(step.channel_key);
    if (!channel)
      errors.push({
        field: at([...path, 'channel_key']),
        message: await missingChannelMessage(step.channel_key, refs),
        type: 'reference',
      });
    type = channel?.type;
  } else if (typeof step.channel_group_key === 'string' && step.channel_group_key) {
    const group = await refs.channelGroup(step.channel_group_key);
    if (!group)
      errors.push({
        field: at([...path, 'channel_group_key']),
        message: `no channel group ${step.channel_group_key} exists`,
        type: 'reference',
      });
    type = group?.channel_type;
  }
  const declared = step.channel_type as ChannelTypeT | undefined;
  if (type && declared && type !== declared && !(declared === 'in_app_feed' && type === 'in_app')) {
    errors.push({ field: at([...path, 'channel_type']), message: `is ${declared} but the channel is of type ${type}`, type: 'mismatch' });
    return;
  }
  const effective = declared ?? type;
  if (!effective) return;
  if (!declared) step.channel_type = effective;
  const schema = templateSchemaFor[effective];
  const template = step.template as Record<string, unknown> | undefined;
  if (!schema || !template) return;
  if (!declared) {
    // The request could not be checked against a template shape without knowing the channel: do it now.
    const parsed = schema.safeParse(template);
    if (!parsed.success) {
      for (const issue of fieldErrors(parsed.error))
        errors.push({
          field: at([...path, 'template', ...(issue.field === '(root)' ? [] : [issue.field])]),
          message: `${issue.message} (for a ${effective} channel)`,
          type: 'template_shape',
        });
      return;
    }
  }
  for (const field of Object.keys(templateFields[effective])) liquid(template[field], [...path, 'template', field]);
  if (effective === 'in_app_feed' || effective === 'in_app') liquid(template.action_url, [...path, 'template', 'action_url']);
  if (effective === 'email') await checkEmail(template, [...path, 'template'], refs, errors, liquid);
}

async function checkEmail(
  template: Record<string, unknown>,
  path: (string | number)[],
  refs: WorkflowReferences,
  errors: ResourceErrorT[],
  liquid: (source: unknown, path: (string | number)[]) => void,
): Promise<void> {
  const settings = (template.settings ?? {}) as Record<string, unknown>;
  if (typeof settings.layout_key === 'string' && settings.layout_key && !(await refs.emailLayout(settings.layout_key))) {
    errors.push({
      field: at([...path, 'settings', 'layout_key']),
      message: `no email layout ${settings.layout_key} exists in this environment`,
      type: 'reference',
    });
  }
  liquid(settings.pre_content, [...path, 'settings', 'pre_content']);
  const blocks = Array.isArray(template.visual_blocks) ? (template.visual_blocks as Record<string, unknown>[]) : [];
  for (const [i, block] of blocks.entries()) {
    if (block.type === 'markdown' || block.type === 'html') liquid(block.content, [...path, 'visual_blocks', i, 'content']);
    if (block.type === 'partial' && typeof block.key === 'string' && !(await refs.partial(block.key))) {
      errors.push({
        field: at([...path, 'visual_blocks', i, 'key']),
        message: `no partial ${block.key} exists in this environment`,
        type: 'reference',
      });
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* strings(item);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* strings(item);
}

/**
 * Whether a workflow version uses the email layout or partial `key`: a step's `layout_key`; a
 * partial block, or a `{% render "key" %}` in any of its Liquid. What archiving refuses to take
 * away from a workflow that still uses it (ADR 0231).
 */
export function workflowUses(content: Record<string, unknown>, type: 'email_layout' | 'partial', key: string): boolean {
  const steps = Array.isArray(content.steps) ? (content.steps as WorkflowStepT[]) : [];
  const render = new RegExp(`\\{%-?\\s*render\\s+(["'])${escapeRegExp(key)}\\1`);
  for (const { step } of walkSteps(steps)) {
    if (step.type !== 'channel') continue;
    const template = (step.template ?? {}) as Record<string, unknown>;
    if (type === 'email_layout') {
      if ((template.settings as Record<string, unknown> | undefined)?.layout_key === key) return true;
      continue;
    }
    const blocks = Array.isArray(template.visual_blocks) ? (template.visual_blocks as Record<string, unknown>[]) : [];
    if (blocks.some((block) => block.type === 'partial' && block.key === key)) return true;
    for (const source of strings(template)) if (render.test(source)) return true;
  }
  return false;
}
