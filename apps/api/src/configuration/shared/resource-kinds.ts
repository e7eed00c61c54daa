import { checkWorkflow, missingChannelMessage, normalizeWorkflow, TemplateChecker, WorkflowReferences } from '@notify/application';
import {
  AudienceRequest,
  AudienceSegmentT,
  EmailLayoutRequest,
  flattenMessages,
  GuideRequestT,
  MessageTypeRequest,
  parsePo,
  PartialRequest,
  ResourceErrorT,
  templateFields,
  TranslationRequest,
  WorkflowRequestT,
  WorkflowStepT,
  writePo,
} from '@notify/contracts';
import {
  audienceDefinitionStream,
  checkGuideStepValues,
  emailLayoutStream,
  guideStream,
  invalidParams,
  MessageTypeSchema,
  messageTypeStream,
  partialStream,
  ResourceType,
  segmentArgumentErrors,
  shownEnvironment,
  translationStream,
  workflowStream,
} from '@notify/domain';
import { ResourceRecord } from '@notify/projections/config-resources';
import { z } from 'zod';

/** What the handlers of every versioned resource need to know about one resource type. */
export interface ResourceKind {
  type: ResourceType;
  /** The key the resource is wrapped in, in requests and responses: `{workflow: {...}}`. */
  wrapper: string;
  label: string;
  stream(environment: string, identifier: string): string;
  /** The stored data of a request (read-only echoes dropped, defaults filled). */
  normalize(body: Record<string, unknown>, ids: ResourceIds): Record<string, unknown>;
  /** Problems that need other resources or the templating engine; the resource is saved with valid: false. */
  check(content: Record<string, unknown>, deps: CheckDeps): Promise<{ content: Record<string, unknown>; errors: ResourceErrorT[] }>;
  present(record: ResourceRecord, options: PresentOptions): Record<string, unknown>;
}

export interface ResourceIds {
  identifier: string;
  key: string;
  /** Translations only. */
  locale_code?: string;
  namespace?: string;
  tenant?: string;
}

export interface CheckDeps {
  references: WorkflowReferences;
  templates: TemplateChecker;
  /** A message type's schema in the environment, for guide steps. */
  messageType(key: string): Promise<MessageTypeSchema | undefined>;
}

export interface PresentOptions {
  annotate?: boolean;
  /** Translations only: the content format to answer with. */
  format?: 'json' | 'po';
}

const liquidErrors = (templates: TemplateChecker, fields: Record<string, unknown>): ResourceErrorT[] =>
  Object.entries(fields).flatMap(([field, source]) =>
    typeof source === 'string'
      ? templates.check(source).map((p) => ({ field, message: p.line ? `line ${p.line}: ${p.message}` : p.message, type: 'template' }))
      : [],
  );

/**
 * The stored content keeps `null` for an optional field left unset (its sha covers exactly what
 * was saved); answers leave such fields out where the reference types them without null
 * (ADR 0119).
 */
export function withoutNulls(content: Record<string, unknown>, optional: readonly string[]): Record<string, unknown> {
  const out = { ...content };
  for (const key of optional) if (out[key] === null) delete out[key];
  return out;
}

const WORKFLOW_OPTIONAL = [
  'categories',
  'conditions',
  'description',
  'settings',
  'tags',
  'trigger_data_json_schema',
  'trigger_frequency',
  'goal_attachment',
  'deleted_at',
];
const PARTIAL_OPTIONAL = ['description', 'icon_name', 'input_schema', 'visual_block_enabled'];
const EMAIL_LAYOUT_OPTIONAL = ['branding_overrides', 'footer_links', 'is_mjml'];
const MESSAGE_TYPE_OPTIONAL = ['icon_name'];

/** Layouts and partials have no field for it in the reference: `archived_at`, as guides and broadcasts name it (ADR 0225). */
const archivedAt = (record: ResourceRecord) => (record.archivedAt ? { archived_at: record.archivedAt.toISOString() } : {});

const common = (record: ResourceRecord) => ({
  valid: record.valid,
  ...(record.valid ? {} : { errors: record.errors }),
  environment: shownEnvironment(record.environment),
  sha: record.sha,
});

const annotation = (extractable: Record<string, { default: boolean; file_ext: string }>, readonly: string[]) => ({
  extractable_fields: extractable,
  readonly_fields: readonly,
});

/** Marks the Liquid fields of every channel step's template so the CLI writes them to files. */
function annotateSteps(steps: WorkflowStepT[]): WorkflowStepT[] {
  return steps.map((step) => {
    const out: WorkflowStepT = { ...step };
    for (const field of ['branches', 'cohort_branches'] as const) {
      if (Array.isArray(step[field]))
        out[field] = (step[field] as { steps?: WorkflowStepT[] }[]).map((b) => (b.steps ? { ...b, steps: annotateSteps(b.steps) } : b));
    }
    const type = step.channel_type as keyof typeof templateFields | undefined;
    const template = step.template as Record<string, unknown> | undefined;
    if (step.type !== 'channel' || !type || !template) return out;
    const fields = Object.fromEntries(
      Object.entries(templateFields[type]).map(([f, ext]) => [f, { default: f !== 'subject', file_ext: ext }]),
    );
    const annotated: Record<string, unknown> = { ...template, __annotation: annotation(fields, []) };
    if (type === 'email' && template.settings && typeof template.settings === 'object') {
      annotated.settings = {
        ...(template.settings as object),
        __annotation: annotation({ pre_content: { default: true, file_ext: 'txt' } }, []),
      };
    }
    out.template = annotated;
    return out;
  });
}

export const workflowKind: ResourceKind = {
  type: 'workflow',
  wrapper: 'workflow',
  label: 'workflow',
  stream: workflowStream,
  normalize: (body) => normalizeWorkflow(body as WorkflowRequestT),
  check: (content, deps) => checkWorkflow(content as never, deps.references, deps.templates),
  present(record, options) {
    const content = record.content as { steps: WorkflowStepT[] };
    return {
      key: record.identifier,
      ...withoutNulls(record.content, WORKFLOW_OPTIONAL),
      active: record.active,
      ...common(record),
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
      // The reference's own field for it (ADR 0225).
      ...(record.archivedAt ? { deleted_at: record.archivedAt.toISOString() } : {}),
      ...(options.annotate
        ? {
            steps: annotateSteps(content.steps),
            __annotation: annotation({}, ['key', 'active', 'valid', 'errors', 'environment', 'sha', 'created_at', 'updated_at']),
          }
        : {}),
    };
  },
};

const PARTIAL_EXT = { html: 'html', text: 'txt', json: 'json', markdown: 'md' } as const;

export const partialKind: ResourceKind = {
  type: 'partial',
  wrapper: 'partial',
  label: 'partial',
  stream: partialStream,
  normalize(body) {
    const p = body as z.infer<typeof PartialRequest>;
    return {
      name: p.name,
      type: p.type,
      content: p.content,
      description: p.description ?? null,
      icon_name: p.icon_name ?? null,
      input_schema: p.input_schema ?? [],
      visual_block_enabled: p.visual_block_enabled ?? false,
    };
  },
  async check(content, deps) {
    return { content, errors: content.type === 'json' ? [] : liquidErrors(deps.templates, { content: content.content }) };
  },
  present(record, options) {
    return {
      key: record.identifier,
      ...withoutNulls(record.content, PARTIAL_OPTIONAL),
      ...common(record),
      inserted_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
      ...archivedAt(record),
      ...(options.annotate
        ? {
            __annotation: annotation(
              { content: { default: true, file_ext: PARTIAL_EXT[record.content.type as keyof typeof PARTIAL_EXT] ?? 'txt' } },
              ['key', 'valid', 'errors', 'environment', 'sha', 'inserted_at', 'updated_at'],
            ),
          }
        : {}),
    };
  },
};

export const emailLayoutKind: ResourceKind = {
  type: 'email_layout',
  wrapper: 'email_layout',
  label: 'email layout',
  stream: emailLayoutStream,
  normalize(body) {
    const l = body as z.infer<typeof EmailLayoutRequest>;
    return {
      name: l.name,
      html_layout: l.html_layout,
      text_layout: l.text_layout,
      footer_links: l.footer_links ?? [],
      ...(l.branding_overrides ? { branding_overrides: l.branding_overrides } : {}),
      is_mjml: l.is_mjml ?? false,
    };
  },
  async check(content, deps) {
    return { content, errors: liquidErrors(deps.templates, { html_layout: content.html_layout, text_layout: content.text_layout }) };
  },
  present(record, options) {
    return {
      key: record.identifier,
      ...withoutNulls(record.content, EMAIL_LAYOUT_OPTIONAL),
      ...common(record),
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
      ...archivedAt(record),
      ...(options.annotate
        ? {
            __annotation: annotation(
              { html_layout: { default: true, file_ext: 'html' }, text_layout: { default: true, file_ext: 'txt' } },
              ['key', 'valid', 'errors', 'environment', 'sha', 'created_at', 'updated_at'],
            ),
          }
        : {}),
    };
  },
};

export const messageTypeKind: ResourceKind = {
  type: 'message_type',
  wrapper: 'message_type',
  label: 'message type',
  stream: messageTypeStream,
  normalize(body) {
    const m = body as z.infer<typeof MessageTypeRequest>;
    return {
      name: m.name,
      description: m.description,
      preview: m.preview,
      icon_name: m.icon_name ?? null,
      semver: m.semver ?? '1.0.0',
      variants: m.variants ?? [],
    };
  },
  async check(content, deps) {
    return { content, errors: liquidErrors(deps.templates, { preview: content.preview }) };
  },
  present(record, options) {
    return {
      key: record.identifier,
      ...withoutNulls(record.content, MESSAGE_TYPE_OPTIONAL),
      owner: 'user',
      ...common(record),
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
      archived_at: null,
      ...(options.annotate
        ? {
            __annotation: annotation({ preview: { default: true, file_ext: 'html' } }, [
              'key',
              'owner',
              'valid',
              'errors',
              'environment',
              'sha',
              'created_at',
              'updated_at',
              'archived_at',
            ]),
          }
        : {}),
    };
  },
};

export const audienceKind: ResourceKind = {
  type: 'audience',
  wrapper: 'audience',
  label: 'audience',
  stream: audienceDefinitionStream,
  normalize(body) {
    const a = body as z.infer<typeof AudienceRequest>;
    const common = { type: a.type, name: a.name, description: a.description ?? null };
    if (a.type === 'static') return common;
    return {
      ...common,
      segments: a.segments.map((segment) => ({
        conditions: segment.conditions.map((c) => ({ property: c.property, operator: c.operator, argument: c.argument ?? null })),
      })),
    };
  },
  /** A relative time that is not one would make its condition hold for nobody: 422, never saved (ADR 0265). */
  async check(content) {
    const segments = content.type === 'dynamic' ? (content.segments as AudienceSegmentT[]) : [];
    const errors = segmentArgumentErrors(segments, 'audience.segments');
    if (errors.length) throw invalidParams(errors);
    return { content, errors: [] };
  },
  present(record) {
    return {
      key: record.identifier,
      type: record.content.type,
      name: record.content.name,
      description: record.content.description ?? null,
      ...(record.content.type === 'dynamic' ? { segments: record.content.segments ?? [] } : {}),
      environment: shownEnvironment(record.environment),
      sha: record.sha,
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
    };
  },
};

const GUIDE_OPTIONAL = ['goal_attachment'];

/**
 * A guide whose steps do not match their message types, or that names no in-app guide channel,
 * is bad input: refused with 422 rather than saved invalid (ADR 0186).
 */
export const guideKind: ResourceKind = {
  type: 'guide',
  wrapper: 'guide',
  label: 'guide',
  stream: guideStream,
  normalize(body) {
    const g = body as GuideRequestT;
    return {
      name: g.name,
      description: g.description ?? null,
      channel_key: g.channel_key,
      type: g.steps[0].schema_key,
      steps: g.steps.map((s) => ({
        ref: s.ref,
        ...(s.name ? { name: s.name } : {}),
        schema_key: s.schema_key,
        schema_semver: s.schema_semver,
        schema_variant_key: s.schema_variant_key,
        values: s.values,
      })),
      tags: g.tags ?? [],
      activation_url_patterns: g.activation_url_patterns ?? [],
      // Only when given: older guides' content (and sha) stays as it was.
      ...(g.activation_url_rules?.length ? { activation_url_rules: g.activation_url_rules } : {}),
      target_audience_key: g.target_audience_key ?? null,
      target_property_conditions: g.target_property_conditions ?? g.guide_audience_conditions ?? null,
      goal_attachment: g.goal_attachment ?? null,
    };
  },
  async check(content, deps) {
    const channel = await deps.references.channel(content.channel_key as string);
    const errors: ResourceErrorT[] = [];
    if (!channel)
      errors.push({
        field: 'guide.channel_key',
        message: await missingChannelMessage(String(content.channel_key), deps.references),
        type: 'reference',
      });
    else if (channel.type !== 'in_app_guide')
      errors.push({ field: 'guide.channel_key', message: `is a ${channel.type} channel, not an in_app_guide channel`, type: 'mismatch' });
    const steps = content.steps as { schema_key: string; schema_variant_key: string; values: Record<string, unknown> }[];
    for (const [i, step] of steps.entries())
      errors.push(...checkGuideStepValues(step, await deps.messageType(step.schema_key), `guide.steps.${i}`));
    if (errors.length) throw invalidParams(errors, 'The guide does not match its channel or message types');
    return { content, errors: [] };
  },
  present(record, options) {
    return {
      key: record.identifier,
      ...withoutNulls(record.content, GUIDE_OPTIONAL),
      active: record.active,
      active_from: record.activeFrom?.toISOString() ?? null,
      active_until: record.activeUntil?.toISOString() ?? null,
      archived_at: null,
      ...common(record),
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
      // The Knock CLI keeps these under `__readonly` in guide.json; the rest is the guide's content.
      ...(options.annotate
        ? {
            __annotation: annotation({}, [
              'key',
              'type',
              'active',
              'active_from',
              'active_until',
              'archived_at',
              'valid',
              'errors',
              'environment',
              'sha',
              'created_at',
              'updated_at',
            ]),
          }
        : {}),
    };
  },
};

/** `en`, `en/billing`, `en/billing@acme`: locale, namespace and tenant in one identifier. */
export { translationIdentifier } from '@notify/application';

function convertTranslation(content: string, from: 'json' | 'po', to: 'json' | 'po'): string {
  if (from === to) return content;
  if (from === 'po') return JSON.stringify(parsePo(content).messages);
  return writePo(flattenMessages(JSON.parse(content)));
}

export const translationKind: ResourceKind = {
  type: 'translation',
  wrapper: 'translation',
  label: 'translation',
  stream: translationStream,
  normalize(body, ids) {
    const t = body as z.infer<typeof TranslationRequest>;
    return {
      locale_code: ids.locale_code,
      namespace: ids.namespace ?? '',
      tenant: ids.tenant ?? null,
      format: t.format,
      content: t.content,
    };
  },
  async check(content, deps) {
    // Every translated string is itself a template: check each one.
    const messages =
      content.format === 'po' ? parsePo(content.content as string).messages : flattenMessages(JSON.parse(content.content as string));
    return {
      content,
      errors: liquidErrors(deps.templates, Object.fromEntries(Object.entries(messages).map(([k, v]) => [`content.${k}`, v]))),
    };
  },
  present(record, options) {
    const c = record.content as { locale_code: string; namespace: string; tenant: string | null; format: 'json' | 'po'; content: string };
    const format = options.format ?? c.format;
    return {
      locale_code: c.locale_code,
      namespace: c.namespace,
      ...(c.tenant === null ? {} : { tenant: c.tenant }),
      format,
      content: convertTranslation(c.content, c.format, format),
      environment: shownEnvironment(record.environment),
      sha: record.sha,
      inserted_at: record.createdAt.toISOString(),
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
    };
  },
};

export const RESOURCE_KINDS: Record<ResourceType, ResourceKind> = {
  workflow: workflowKind,
  partial: partialKind,
  email_layout: emailLayoutKind,
  message_type: messageTypeKind,
  translation: translationKind,
  audience: audienceKind,
  guide: guideKind,
};
