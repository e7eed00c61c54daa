import { WorkflowRequest } from '@notify/contracts';
import { checkWorkflow, normalizeWorkflow, WorkflowReferences, workflowUses } from './workflow-validation';
import { TemplateChecker } from './template-checker';

const fieldsOf = (raw: unknown): string[] => {
  const result = WorkflowRequest.safeParse(raw);
  if (result.success) return [];
  return result.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys' ? i.keys.map((k) => [...i.path, k].join('.')) : [i.path.join('.')],
  );
};
const workflowWith = (...steps: unknown[]) => ({ name: 'W', steps });

const inApp = { type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hi {{ recipient.name }}' } };
const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
  day,
  type: 'send',
  from: '09:00',
  until: '17:00',
}));
const hour = { unit: 'hours', value: 1 };

/** Each step kind: a valid configuration, and an invalid one with the field the error names. */
const cases: { kind: string; valid: unknown; invalid: unknown; field: string }[] = [
  {
    kind: 'channel (in-app feed)',
    valid: { ...inApp, channel_type: 'in_app_feed', send_windows: week },
    invalid: { ...inApp, channel_group_key: 'push-group' },
    field: 'steps.0.channel_key',
  },
  {
    kind: 'channel (email)',
    valid: {
      type: 'channel',
      ref: 'mail',
      channel_key: 'postmark',
      channel_type: 'email',
      template: { subject: 'Hi', html_body: '<p>Hi</p>', settings: { layout_key: 'default' } },
    },
    invalid: { type: 'channel', ref: 'mail', channel_key: 'postmark', channel_type: 'email', template: { subject: 'Hi', settings: {} } },
    field: 'steps.0.template.html_body',
  },
  {
    kind: 'channel (sms)',
    valid: { type: 'channel', ref: 'sms', channel_key: 'twilio', channel_type: 'sms', template: { text_body: 'Hi' } },
    invalid: { type: 'channel', ref: 'sms', channel_key: 'twilio', channel_type: 'sms', template: { markdown_body: 'Hi' } },
    field: 'steps.0.template.text_body',
  },
  {
    kind: 'channel (push)',
    valid: {
      type: 'channel',
      ref: 'push',
      channel_key: 'fcm',
      channel_type: 'push',
      template: { title: 'T', text_body: 'B', settings: { delivery_type: 'content' } },
    },
    invalid: {
      type: 'channel',
      ref: 'push',
      channel_key: 'fcm',
      channel_type: 'push',
      template: { title: 'T', text_body: 'B', settings: { delivery_type: 'loud' } },
    },
    field: 'steps.0.template.settings.delivery_type',
  },
  {
    kind: 'channel (chat)',
    valid: { type: 'channel', ref: 'chat', channel_key: 'slack', channel_type: 'chat', template: { markdown_body: '*hi*' } },
    invalid: { type: 'channel', ref: 'chat', channel_type: 'chat', template: { markdown_body: '*hi*' } },
    field: 'steps.0.channel_key',
  },
  {
    kind: 'channel (webhook)',
    valid: {
      type: 'channel',
      ref: 'hook',
      channel_key: 'webhook',
      channel_type: 'http',
      template: { url: 'https://x.test', method: 'post', body: '{}' },
    },
    invalid: {
      type: 'channel',
      ref: 'hook',
      channel_key: 'webhook',
      channel_type: 'http',
      template: { url: 'https://x.test', method: 'fetch' },
    },
    field: 'steps.0.template.method',
  },
  {
    kind: 'channel (send windows)',
    valid: { ...inApp, send_windows: week },
    invalid: { ...inApp, send_windows: week.slice(0, 3) },
    field: 'steps.0.send_windows',
  },
  {
    kind: 'delay',
    valid: { type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'minutes', value: 5 } } },
    invalid: { type: 'delay', ref: 'wait', settings: {} },
    field: 'steps.0.settings',
  },
  {
    kind: 'delay (duration)',
    valid: { type: 'delay', ref: 'wait', settings: { delay_until_field_path: 'data.at' } },
    invalid: { type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'fortnights', value: 1 } } },
    field: 'steps.0.settings.delay_for.unit',
  },
  {
    kind: 'batch',
    valid: {
      type: 'batch',
      ref: 'batch',
      settings: {
        batch_window: hour,
        batch_window_type: 'sliding',
        batch_window_extension_limit: { unit: 'days', value: 1 },
        batch_key: 'data.id',
        batch_order: 'desc',
        batch_items_max_limit: 1000,
        batch_items_render_limit: 100,
        batch_execution_mode: 'flush_leading',
      },
    },
    invalid: { type: 'batch', ref: 'batch', settings: { batch_window: hour, batch_items_render_limit: 101 } },
    field: 'steps.0.settings.batch_items_render_limit',
  },
  {
    kind: 'batch (max limit)',
    valid: { type: 'batch', ref: 'b', settings: { batch_until_field_path: 'data.until', batch_items_max_limit: 2 } },
    invalid: { type: 'batch', ref: 'b', settings: { batch_window: hour, batch_items_max_limit: 1 } },
    field: 'steps.0.settings.batch_items_max_limit',
  },
  {
    kind: 'batch (extension)',
    valid: { type: 'batch', ref: 'b', settings: { batch_window: hour, batch_window_type: 'fixed' } },
    invalid: { type: 'batch', ref: 'b', settings: { batch_window: hour, batch_window_extension_limit: { unit: 'days', value: 1 } } },
    field: 'steps.0.settings.batch_window_extension_limit',
  },
  {
    kind: 'batch (window)',
    valid: { type: 'batch', ref: 'b', settings: { batch_window: { unit: 'seconds', value: 30 } } },
    invalid: { type: 'batch', ref: 'b', settings: { batch_key: 'data.id' } },
    field: 'steps.0.settings.batch_window',
  },
  {
    kind: 'fetch',
    valid: {
      type: 'http_fetch',
      ref: 'fetch',
      settings: {
        url: 'https://api.test/{{ recipient.id }}',
        method: 'get',
        headers: [{ key: 'Accept', value: 'application/json' }],
        query_params: '{"a": 1}',
      },
    },
    invalid: { type: 'http_fetch', ref: 'fetch', settings: { method: 'get' } },
    field: 'steps.0.settings.url',
  },
  {
    kind: 'throttle',
    valid: { type: 'throttle', ref: 't', settings: { throttle_window: hour, throttle_limit: 3, throttle_key: 'data.k' } },
    invalid: { type: 'throttle', ref: 't', settings: { throttle_window: hour, throttle_limit: 0 } },
    field: 'steps.0.settings.throttle_limit',
  },
  {
    kind: 'branch',
    valid: {
      type: 'branch',
      ref: 'br',
      branches: [
        {
          name: 'VIP',
          conditions: { all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'vip' }] },
          steps: [{ ...inApp, ref: 'vip_feed' }],
        },
        { name: 'Default', steps: [], terminates: true },
      ],
    },
    invalid: { type: 'branch', ref: 'br', branches: [{ name: 'Default' }, { name: 'Also default' }] },
    field: 'steps.0.branches.0.conditions',
  },
  {
    kind: 'random_cohort',
    valid: {
      type: 'random_cohort',
      ref: 'ab',
      cohort_branches: [
        { name: 'A', percentage: 33.3, steps: [] },
        { name: 'B', percentage: '66.7' },
      ],
    },
    invalid: { type: 'random_cohort', ref: 'ab', cohort_branches: [{ percentage: 50 }, { percentage: 40 }] },
    field: 'steps.0.cohort_branches',
  },
  {
    kind: 'random_cohort (branches)',
    valid: { type: 'random_cohort', ref: 'ab', cohort_branches: Array.from({ length: 10 }, () => ({ percentage: 10 })) },
    invalid: { type: 'random_cohort', ref: 'ab', cohort_branches: [{ percentage: 100 }] },
    field: 'steps.0.cohort_branches',
  },
  {
    kind: 'trigger_workflow',
    valid: { type: 'trigger_workflow', ref: 'tw', settings: { workflow_key: 'other', recipients: '["{{ recipient.id }}"]', data: '{}' } },
    invalid: { type: 'trigger_workflow', ref: 'tw', settings: { recipients: '[]' } },
    field: 'steps.0.settings.workflow_key',
  },
  {
    kind: 'update_user',
    valid: { type: 'update_user', ref: 'uu', settings: { recipient_mode: 'current', update_properties: '{"seen": true}' } },
    invalid: { type: 'update_user', ref: 'uu', settings: { recipient_mode: 'reference', update_properties: '{}' } },
    field: 'steps.0.settings.recipient_gid',
  },
  {
    kind: 'update_object',
    valid: { type: 'update_object', ref: 'uo', settings: { recipient_gid: 'gid://Object/projects/p1', update_properties: '{}' } },
    invalid: { type: 'update_object', ref: 'uo', settings: { recipient_gid: 'projects/p1', update_properties: '{}' } },
    field: 'steps.0.settings.recipient_gid',
  },
  {
    kind: 'update_tenant',
    valid: {
      type: 'update_tenant',
      ref: 'ut',
      settings: { recipient_mode: 'reference', recipient_gid: 'gid://Object/$tenants/acme', update_properties: '{}' },
    },
    invalid: {
      type: 'update_tenant',
      ref: 'ut',
      settings: { recipient_mode: 'reference', recipient_gid: 'gid://Object/$users/u1', update_properties: '{}' },
    },
    field: 'steps.0.settings.recipient_gid',
  },
  {
    kind: 'update_data',
    valid: { type: 'update_data', ref: 'ud', settings: { data: '{"x": 1}' } },
    invalid: { type: 'update_data', ref: 'ud', settings: { data: '' } },
    field: 'steps.0.settings.data',
  },
  {
    kind: 'wait_for_event',
    valid: {
      type: 'wait_for_event',
      ref: 'wait',
      settings: {
        event: { event_type: 'message', event_key: 'seen', source_type: 'workflow', source_key: 'welcome' },
        match_conditions: [{ operator: 'and', conditions: [{ variable: 'event.step_ref', operator: 'equal_to', argument: 'feed' }] }],
        expires_after: { unit: 'days', value: 1 },
        on_timeout: 'continue',
      },
    },
    invalid: {
      type: 'wait_for_event',
      ref: 'wait',
      settings: {
        event: { event_type: 'message', event_key: 'seen', source_type: 'workflow', source_key: 'welcome' },
        match_conditions: [],
      },
    },
    field: 'steps.0.settings.match_conditions',
  },
  {
    kind: 'ai_agent',
    valid: {
      type: 'ai_agent',
      ref: 'ai',
      settings: { model: 'anthropic:claude-haiku-4-5', request_prompt: 'Summarise {{ data.text }}', response_type: 'text' },
    },
    invalid: { type: 'ai_agent', ref: 'ai', settings: { model: 'anthropic:claude-haiku-4-5', request_prompt: 'x', response_type: 'json' } },
    field: 'steps.0.settings.response_schema',
  },
  { kind: 'unknown kind', valid: inApp, invalid: { type: 'teleport', ref: 'x' }, field: 'steps.0.type' },
];

describe('workflow step validation', () => {
  it.each(cases)('accepts a valid $kind step', ({ valid }) => {
    expect(fieldsOf(workflowWith(valid))).toEqual([]);
  });

  it.each(cases)('rejects an invalid $kind step, naming $field', ({ invalid, field }) => {
    expect(fieldsOf(workflowWith(invalid))).toContain(field);
  });
});

describe('workflow-level validation', () => {
  it.each([
    ['a name over 255 characters', { name: 'x'.repeat(256), steps: [] }, 'name'],
    ['a description over 280 characters', { name: 'W', description: 'x'.repeat(281), steps: [] }, 'description'],
    ['an unknown trigger frequency', { name: 'W', steps: [], trigger_frequency: 'hourly' }, 'trigger_frequency'],
    ['an invalid JSON Schema', { name: 'W', steps: [], trigger_data_json_schema: { type: 'strange' } }, 'trigger_data_json_schema'],
    [
      'a condition missing its argument',
      { name: 'W', steps: [], conditions: { all: [{ variable: 'data.x', operator: 'equal_to' }] } },
      'conditions.all.0.argument',
    ],
    ['an unknown field', { name: 'W', steps: [], colour: 'blue' }, 'colour'],
    [
      'duplicate step refs, nested ones included',
      workflowWith(inApp, {
        type: 'branch',
        ref: 'b',
        branches: [{ conditions: { all: [{ variable: 'data.x', operator: 'exists' }] }, steps: [inApp] }, {}],
      }),
      'steps.1.branches.0.steps.0.ref',
    ],
  ])('rejects %s', (_what, raw, field) => {
    expect(fieldsOf(raw)).toContain(field);
  });

  it('accepts a JSON Schema and settings, and ignores read-only fields a pulled workflow carries', () => {
    const raw = {
      ...workflowWith(inApp),
      key: 'welcome',
      $schema: 'https://schemas.knock.app/cli/workflow.json',
      __readonly: { key: 'welcome', active: false },
      settings: { is_commercial: true, override_preferences: false },
      trigger_data_json_schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { id: { type: 'string' } },
        required: ['id'],
      },
      trigger_frequency: 'once_per_recipient',
      categories: ['onboarding'],
      tags: ['team-a'],
    };
    expect(fieldsOf(raw)).toEqual([]);
    const content = normalizeWorkflow(WorkflowRequest.parse(raw));
    expect(Object.keys(content).sort()).toEqual([
      'categories',
      'conditions',
      'description',
      'name',
      'settings',
      'steps',
      'tags',
      'trigger_data_json_schema',
      'trigger_frequency',
    ]);
  });
});

describe('checkWorkflow (references and Liquid)', () => {
  const refs: WorkflowReferences = {
    channel: async (key) => ({ 'in-app': { type: 'in_app_feed' as const }, postmark: { type: 'email' as const } })[key],
    channelGroup: async (key) => (key === 'push-group' ? { channel_type: 'push' as const } : undefined),
    emailLayout: async (key) => key === 'default',
    partial: async () => false,
  };
  const noProblems: TemplateChecker = { check: () => [] };
  const check = (steps: unknown[], templates = noProblems) =>
    checkWorkflow(normalizeWorkflow(WorkflowRequest.parse(workflowWith(...steps))), refs, templates);

  it('finds an ai_agent step unsupported (no AI provider here): saved invalid, never activated, never failing a run', async () => {
    const ai = {
      type: 'ai_agent',
      ref: 'ai',
      settings: { model: 'anthropic:claude-haiku-4-5', request_prompt: 'Summarise {{ data.text }}', response_type: 'text' },
    };
    const { errors } = await check([inApp, ai]);
    expect(errors).toEqual([expect.objectContaining({ field: 'steps.1.type', type: 'unsupported_step' })]);
  });

  it('finds nothing wrong with a workflow whose references resolve, and fills in the channel type', async () => {
    const { content, errors } = await check([inApp]);
    expect(errors).toEqual([]);
    expect(content.steps[0]).toMatchObject({ channel_type: 'in_app_feed' });
  });

  it('reports a missing channel, channel group or layout', async () => {
    const { errors } = await check([
      { ...inApp, channel_key: 'nope' },
      { type: 'channel', ref: 'g', channel_group_key: 'missing-group', template: { markdown_body: 'x' } },
      {
        type: 'channel',
        ref: 'mail',
        channel_key: 'postmark',
        template: { subject: 'S', html_body: 'x', settings: { layout_key: 'fancy' } },
      },
    ]);
    expect(errors.map((e) => e.field)).toEqual([
      'steps.0.channel_key',
      'steps.1.channel_group_key',
      'steps.2.template.settings.layout_key',
    ]);
  });

  it('reports a template whose shape does not fit the channel type', async () => {
    const { errors } = await check([{ ...inApp, channel_key: 'postmark' }]);
    expect(errors[0]).toMatchObject({ field: 'steps.0.template.subject', type: 'template_shape' });
    const mismatch = await check([{ ...inApp, channel_type: 'sms', template: { text_body: 'x' } }]);
    expect(mismatch.errors).toEqual([expect.objectContaining({ field: 'steps.0.channel_type', type: 'mismatch' })]);
  });

  it('reports Liquid problems with the field they are in', async () => {
    const strict: TemplateChecker = { check: (s) => (s.includes('{%') ? [{ message: 'tag not closed', line: 1 }] : []) };
    const { errors } = await check(
      [
        { ...inApp, template: { markdown_body: '{% if x %}' } },
        { type: 'update_data', ref: 'd', settings: { data: '{% for %}' } },
      ],
      strict,
    );
    expect(errors).toEqual([
      { field: 'steps.0.template.markdown_body', message: 'line 1: tag not closed', type: 'template' },
      { field: 'steps.1.settings.data', message: 'line 1: tag not closed', type: 'template' },
    ]);
  });
});

describe('workflowUses (what archiving a layout or partial refuses to take away, ADR 0231)', () => {
  const mail = (template: Record<string, unknown>) => ({ type: 'channel', ref: 'mail', channel_key: 'email', template });
  const inBranch = (step: unknown) => ({
    name: 'W',
    steps: [{ type: 'branch', ref: 'b', branches: [{ name: 'x', terminates: false, steps: [step] }] }],
  });

  it('finds a layout key and partials, in blocks or rendered from Liquid, nested steps included', () => {
    expect(workflowUses(inBranch(mail({ settings: { layout_key: 'lay3' } })), 'email_layout', 'lay3')).toBe(true);
    expect(workflowUses(inBranch(mail({ visual_blocks: [{ type: 'partial', key: 'sig' }] })), 'partial', 'sig')).toBe(true);
    for (const source of ['{% render "sig" %}', "{%- render 'sig', name: 'x' -%}", '<p>{%render "sig"%}</p>'])
      expect([source, workflowUses(workflowWith(mail({ html_body: source })), 'partial', 'sig')]).toEqual([source, true]);
  });

  it('does not confuse other keys, other kinds, or steps that are not channel steps', () => {
    expect(workflowUses(workflowWith(mail({ settings: { layout_key: 'lay30' } })), 'email_layout', 'lay3')).toBe(false);
    expect(workflowUses(workflowWith(mail({ settings: { layout_key: 'sig' } })), 'partial', 'sig')).toBe(false);
    expect(workflowUses(workflowWith(mail({ html_body: '{% render "signature" %} sig' })), 'partial', 'sig')).toBe(false);
    expect(workflowUses(workflowWith(mail({ html_body: '{% render "s.g" %}' })), 'partial', 's+g')).toBe(false);
    expect(workflowUses(workflowWith({ type: 'delay', ref: 'd', settings: { layout_key: 'lay3' } }), 'email_layout', 'lay3')).toBe(false);
  });
});
