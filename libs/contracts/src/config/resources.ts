import { z } from 'zod';
import { Id } from '../http/ids';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { CONDITION_OPERATORS, UNARY_OPERATORS } from '../conditions';
import {
  acceptingCliFiles,
  ArchivedFilter,
  ArchiveResult,
  EnvironmentQuery,
  MgmtPageQuery,
  mgmtListOf,
  ReadOptions,
  readOnlyEcho,
  ResourceError,
  ResourceKey,
  WriteOptions,
} from './mgmt';
import { flattenMessages, parsePo } from './po';
import { resourceUpsertedData } from './workflows';

/** Partials, email layouts, translations and message types: versioned like workflows, per environment. */

// Partials

const InputField = z.looseObject({
  type: z.string().min(1).max(50),
  key: z.string().min(1).max(255),
  label: z.string().max(255).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
});

export const PartialType = z.enum(['html', 'text', 'json', 'markdown']);

export const PartialRequest = z.strictObject({
  name: z.string().min(1, 'is required').max(255),
  type: PartialType,
  content: z.string().max(100_000),
  description: z.string().max(280, 'must be at most 280 characters').nullable().optional(),
  icon_name: z.string().max(255).nullable().optional(),
  input_schema: z.array(InputField).max(100).optional(),
  visual_block_enabled: z.boolean().optional(),
  key: z.string().optional(),
  ...readOnlyEcho,
});

export const Partial = z
  .object({
    key: z.string(),
    name: z.string(),
    type: PartialType,
    content: z.string(),
    /** Absent when unset (ADR 0119). */
    description: z.string().optional(),
    icon_name: z.string().optional(),
    input_schema: z.array(z.record(z.string(), z.unknown())),
    visual_block_enabled: z.boolean(),
    valid: z.boolean(),
    errors: z.array(ResourceError).optional(),
    environment: z.string(),
    sha: z.string(),
    inserted_at: z.string(),
    updated_at: z.string(),
    /** Only on an archived partial, listed with `archived=include|only` (ADR 0225). */
    archived_at: z.string().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'Partial' });

// Email layouts

const HexColor = z.string().regex(/^#(?:[A-Fa-f0-9]{3}|[A-Fa-f0-9]{6})$/, 'must be a hex colour such as #4F46E5');
const BrandingOverrides = z.strictObject({
  dark_icon_url: z.string().max(2000).optional(),
  dark_logo_url: z.string().max(2000).optional(),
  dark_primary_color: HexColor.optional(),
  dark_primary_color_contrast: HexColor.optional(),
  icon_url: z.string().max(2000).optional(),
  logo_url: z.string().max(2000).optional(),
  primary_color: HexColor.optional(),
  primary_color_contrast: HexColor.optional(),
  primary_text_color: HexColor.optional(),
  secondary_text_color: HexColor.optional(),
});

/** A layout wraps a message: without `{{ content }}` the message would never show. */
const wrapsContent = (s: string) => /\{\{-?\s*content\s*-?\}\}/.test(s);

export const EmailLayoutRequest = z
  .strictObject({
    name: z.string().min(1, 'is required').max(255),
    html_layout: z.string().max(200_000),
    text_layout: z.string().max(100_000),
    footer_links: z
      .array(z.strictObject({ text: z.string().min(1).max(255), url: z.string().min(1).max(2000) }))
      .max(20)
      .optional(),
    branding_overrides: BrandingOverrides.optional(),
    is_mjml: z.boolean().optional(),
    key: z.string().optional(),
    ...readOnlyEcho,
  })
  .superRefine((layout, ctx) => {
    if (!wrapsContent(layout.html_layout))
      ctx.addIssue({ code: 'custom', path: ['html_layout'], message: 'must include {{ content }} where the message goes' });
    if (!wrapsContent(layout.text_layout))
      ctx.addIssue({ code: 'custom', path: ['text_layout'], message: 'must include {{ content }} where the message goes' });
    if (layout.is_mjml && !/<mjml[\s>]/i.test(layout.html_layout))
      ctx.addIssue({ code: 'custom', path: ['html_layout'], message: 'must contain <mjml> when is_mjml is true' });
  });

export const EmailLayout = z
  .object({
    key: z.string(),
    name: z.string(),
    html_layout: z.string(),
    text_layout: z.string(),
    footer_links: z.array(z.object({ text: z.string(), url: z.string() })),
    branding_overrides: z.record(z.string(), z.string()).optional(),
    is_mjml: z.boolean(),
    valid: z.boolean(),
    errors: z.array(ResourceError).optional(),
    environment: z.string(),
    sha: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    /** Only on an archived layout, listed with `archived=include|only` (ADR 0225). */
    archived_at: z.string().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'EmailLayout' });

// Translations

export const LocaleCode = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a locale code such as en or pt-BR');
export const TranslationNamespace = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9_-]*$/, 'must contain only letters, digits, _ and -');
export const TranslationFormat = z.enum(['json', 'po']);

export const TranslationRequest = z
  .strictObject({
    content: z.string().max(500_000),
    format: TranslationFormat,
    locale_code: z.string().optional(),
    namespace: z.string().optional(),
    tenant: z.string().optional(),
    ...readOnlyEcho,
  })
  .superRefine((t, ctx) => {
    if (t.format === 'po') {
      for (const e of parsePo(t.content).errors)
        ctx.addIssue({ code: 'custom', path: ['content'], message: `is not valid PO${e.line ? ` (line ${e.line})` : ''}: ${e.message}` });
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(t.content);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: `is not valid JSON: ${(error as Error).message}` });
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'must be a JSON object of translation keys' });
      return;
    }
    const bad = Object.keys(flattenMessages(parsed)).length === 0 && Object.keys(parsed).length > 0;
    if (bad) ctx.addIssue({ code: 'custom', path: ['content'], message: 'values must be strings or objects of strings' });
  });

export const Translation = z
  .object({
    locale_code: z.string(),
    namespace: z.string(),
    /** Absent for a translation of no tenant (ADR 0119). */
    tenant: z.string().optional(),
    content: z.string(),
    format: TranslationFormat,
    environment: z.string(),
    sha: z.string(),
    inserted_at: z.string(),
    /** The same as inserted_at: the Knock CLI's `translation list` shows this one. */
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Translation' });

// Message types

export const MessageTypeRequest = z.strictObject({
  name: z.string().min(1, 'is required').max(255),
  description: z.string().max(280, 'must be at most 280 characters').nullable(),
  preview: z.string().max(100_000),
  icon_name: z.string().max(255).nullable().optional(),
  semver: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/, 'must be a semantic version such as 1.0.0')
    .optional(),
  variants: z
    .array(z.strictObject({ key: ResourceKey, name: z.string().min(1).max(255), fields: z.array(InputField).max(100) }))
    .max(50)
    .superRefine((variants, ctx) => {
      const keys = new Set<string>();
      variants.forEach((v, i) => {
        if (keys.has(v.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: 'variant keys must be unique' });
        keys.add(v.key);
      });
    })
    .optional(),
  key: z.string().optional(),
  owner: z.unknown().optional(),
  ...readOnlyEcho,
});

export const MessageType = z
  .object({
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    preview: z.string(),
    icon_name: z.string().optional(),
    semver: z.string(),
    variants: z.array(z.record(z.string(), z.unknown())),
    owner: z.literal('user'),
    valid: z.boolean(),
    errors: z.array(ResourceError).optional(),
    environment: z.string(),
    sha: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    archived_at: z.null(),
  })
  .meta({ id: 'MessageType' });

// Audiences: static (explicit members) or dynamic (segments of conditions over the user, ADR 0138)

/** Operators a segment condition may use: the reference's, but for membership of other audiences. */
const SEGMENT_OPERATORS = CONDITION_OPERATORS.filter((o) => o !== 'is_audience_member' && o !== 'is_not_audience_member');

export const AudienceCondition = z
  .strictObject({
    property: z
      .string()
      .max(255)
      .regex(
        /^(recipient|tenant)\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/,
        'must be a property path of the user or of the tenant, such as recipient.plan or tenant.plan',
      ),
    operator: z
      .enum(CONDITION_OPERATORS, { error: () => `must be one of ${SEGMENT_OPERATORS.join(', ')}` })
      .refine((op) => (SEGMENT_OPERATORS as readonly string[]).includes(op), {
        message: 'is not supported in a segment: membership of another audience is not a property of the user',
      }),
    argument: z.string().max(10_000).nullable().optional(),
  })
  .superRefine((c, ctx) => {
    if (!UNARY_OPERATORS.has(c.operator) && (c.argument === null || c.argument === undefined || c.argument === ''))
      ctx.addIssue({ code: 'custom', path: ['argument'], message: `is required for the ${c.operator} operator` });
  })
  .meta({ id: 'AudienceCondition' });

export const AudienceSegment = z.strictObject({ conditions: z.array(AudienceCondition).min(1, 'needs at least one condition').max(50) });
export type AudienceSegmentT = z.infer<typeof AudienceSegment>;

const audienceCommon = {
  name: z.string().min(1, 'is required').max(255),
  description: z.string().max(280, 'must be at most 280 characters').nullable().optional(),
  key: z.string().optional(),
  ...readOnlyEcho,
};

export const AudienceRequest = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('static'), ...audienceCommon }),
    z.strictObject({ type: z.literal('dynamic'), segments: z.array(AudienceSegment).max(20).default([]), ...audienceCommon }),
  ],
  { error: () => 'must be static or dynamic' },
);

const audienceEntry = {
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  environment: z.string(),
  sha: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const Audience = z
  .union([
    z.object({ type: z.literal('static'), ...audienceEntry }),
    z.object({
      type: z.literal('dynamic'),
      segments: z.array(
        z.object({ conditions: z.array(z.object({ property: z.string(), operator: z.string(), argument: z.string().nullable() })) }),
      ),
      ...audienceEntry,
    }),
  ])
  .meta({ id: 'Audience' });

// Events

export const PartialUpserted = defineEvent('PartialUpserted', 1, resourceUpsertedData);
export const EmailLayoutUpserted = defineEvent('EmailLayoutUpserted', 1, resourceUpsertedData);
export const TranslationUpserted = defineEvent('TranslationUpserted', 1, resourceUpsertedData);
export const MessageTypeUpserted = defineEvent('MessageTypeUpserted', 1, resourceUpsertedData);

export const AudienceUpserted = defineEvent('AudienceUpserted', 1, resourceUpsertedData);

/** Archived in one environment (ADR 0225), like WorkflowArchived. */
const ResourceArchivedData = z.object({ key: z.string(), archived_at: z.string() });
export const PartialArchived = defineEvent('PartialArchived', 1, ResourceArchivedData);
export const EmailLayoutArchived = defineEvent('EmailLayoutArchived', 1, ResourceArchivedData);

export const resourceEventContracts = [
  PartialUpserted,
  EmailLayoutUpserted,
  TranslationUpserted,
  MessageTypeUpserted,
  AudienceUpserted,
  PartialArchived,
  EmailLayoutArchived,
] as const;

// Routes

const resourceRoutes = <Body extends z.ZodType, Entry extends z.ZodType>(spec: {
  name: string;
  plural: string;
  tag: string;
  path: string;
  param: string;
  wrapper: string;
  body: Body;
  entry: Entry;
  paramSchema?: z.ZodType;
  extraQuery?: z.ZodRawShape;
  /** What a get answers, when not the entry itself. */
  getResponse?: z.ZodType;
  /** The upsert without `?environment=` writes to the first environment (see RouteContract.environmentDefault). */
  upsertEnvironmentDefault?: 'first';
  /** Query fields of the list only. */
  listQuery?: z.ZodRawShape;
}) => {
  const params = z.object({ [spec.param]: spec.paramSchema ?? ResourceKey });
  const wrapped = z.object({ [spec.wrapper]: spec.entry });
  const extra = spec.extraQuery ?? {};
  return {
    list: defineRoute({
      operationId: `list${spec.plural}`,
      method: 'GET',
      path: spec.path,
      summary: `List the ${spec.tag.toLowerCase()} of an environment`,
      tags: [spec.tag],
      auth: 'service',
      rateTier: 4,
      query: ReadOptions.extend(MgmtPageQuery.shape)
        .extend(extra)
        .extend(spec.listQuery ?? {}),
      response: mgmtListOf(spec.entry),
    }),
    get: defineRoute({
      operationId: `get${spec.name}`,
      method: 'GET',
      path: `${spec.path}/{${spec.param}}`,
      summary: `Get one of the ${spec.tag.toLowerCase()}; its latest version unless hide_uncommitted_changes is set`,
      tags: [spec.tag],
      auth: 'service',
      rateTier: 4,
      params,
      query: ReadOptions.extend(extra),
      response: spec.getResponse ?? spec.entry,
    }),
    upsert: defineRoute({
      operationId: `upsert${spec.name}`,
      method: 'PUT',
      path: `${spec.path}/{${spec.param}}`,
      summary: `Create or replace one of the ${spec.tag.toLowerCase()}`,
      tags: [spec.tag],
      auth: 'service',
      rateTier: 3,
      params,
      query: WriteOptions.extend(extra),
      body: z.object({ [spec.wrapper]: acceptingCliFiles(spec.body) }),
      response: wrapped,
      ...(spec.upsertEnvironmentDefault ? { environmentDefault: spec.upsertEnvironmentDefault } : {}),
    }),
    validate: defineRoute({
      operationId: `validate${spec.name}`,
      method: 'PUT',
      path: `${spec.path}/{${spec.param}}/validate`,
      summary: `Validate one of the ${spec.tag.toLowerCase()} without saving it`,
      tags: [spec.tag],
      auth: 'service',
      rateTier: 3,
      params,
      query: EnvironmentQuery.extend(extra),
      body: z.object({ [spec.wrapper]: acceptingCliFiles(spec.body) }),
      response: wrapped,
    }),
  };
};

export const partialRoutes = resourceRoutes({
  name: 'Partial',
  plural: 'Partials',
  tag: 'Partials',
  path: '/v1/partials',
  param: 'partial_key',
  wrapper: 'partial',
  body: PartialRequest,
  entry: Partial,
  listQuery: { archived: ArchivedFilter.optional() },
});
export const emailLayoutRoutes = resourceRoutes({
  name: 'EmailLayout',
  plural: 'EmailLayouts',
  tag: 'Email layouts',
  path: '/v1/email_layouts',
  param: 'email_layout_key',
  wrapper: 'email_layout',
  body: EmailLayoutRequest,
  entry: EmailLayout,
  listQuery: { archived: ArchivedFilter.optional() },
});

/** Not in the reference nor the clients (ADR 0225): archives in every environment (only in the branch when one is given). */
const archiveRoute = (name: string, tag: string, path: string, param: string, note = '') =>
  defineRoute({
    operationId: `archive${name}`,
    method: 'DELETE',
    path: `${path}/{${param}}`,
    summary: `Archive one of the ${tag.toLowerCase()} in every environment: it leaves the lists${note}`,
    tags: [tag],
    auth: 'service',
    rateTier: 3,
    params: z.object({ [param]: ResourceKey }),
    query: EnvironmentQuery,
    response: ArchiveResult,
  });
const IN_USE = ' (409 resource_in_use while a workflow uses it, ADR 0231)';
export const archivePartialRoute = archiveRoute('Partial', 'Partials', '/v1/partials', 'partial_key', IN_USE);
export const archiveEmailLayoutRoute = archiveRoute('EmailLayout', 'Email layouts', '/v1/email_layouts', 'email_layout_key', IN_USE);
export const messageTypeRoutes = resourceRoutes({
  name: 'MessageType',
  plural: 'MessageTypes',
  tag: 'Message types',
  path: '/v1/message_types',
  param: 'message_type_key',
  wrapper: 'message_type',
  body: MessageTypeRequest,
  entry: MessageType,
});
export const audienceRoutes = resourceRoutes({
  name: 'Audience',
  plural: 'Audiences',
  tag: 'Audiences',
  path: '/v1/audiences',
  param: 'audience_key',
  wrapper: 'audience',
  body: AudienceRequest,
  entry: Audience,
  // The Knock CLI's `audience push` (and `push --knock-dir`, every type) sends its upsert with no query string at all.
  upsertEnvironmentDefault: 'first',
});
/** Archives the audience in every environment it exists in (ADR 0171). */
export const archiveAudienceRoute = defineRoute({
  operationId: 'archiveAudience',
  method: 'DELETE',
  path: '/v1/audiences/{audience_key}',
  summary: 'Archive an audience across all environments: it leaves the lists and its members leave',
  tags: ['Audiences'],
  auth: 'service',
  rateTier: 3,
  params: z.object({ audience_key: ResourceKey }),
  query: EnvironmentQuery,
  response: z.object({ result: z.string() }).meta({ id: 'ArchiveAudienceResponse' }),
});
export const translationRoutes = resourceRoutes({
  name: 'Translation',
  plural: 'Translations',
  tag: 'Translations',
  path: '/v1/translations',
  param: 'locale_code',
  wrapper: 'translation',
  body: TranslationRequest,
  entry: Translation,
  paramSchema: LocaleCode,
  extraQuery: {
    namespace: TranslationNamespace.optional(),
    tenant: Id.optional(),
    format: TranslationFormat.optional(),
    locale_code: LocaleCode.optional(),
  },
  // The reference and @knocklabs/mgmt read a translation under `translation`; the Knock CLI's
  // `translation pull <ref>` reads its fields at the top level. Both are answered (ADR 0123).
  getResponse: Translation.extend({ translation: Translation }).meta({ id: 'GetTranslationResponse' }),
});
