import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { ConditionGroup } from '../conditions';
import {
  EnvironmentQuery,
  MgmtPageQuery,
  mgmtListOf,
  QueryFlag,
  ReadOptions,
  readOnlyEcho,
  ResourceError,
  ResourceKey,
  WriteOptions,
} from './mgmt';

/**
 * Guides: in-app content (banners, modals, tours) built from steps, each step's values shaped by
 * a message type's variant. Versioned per environment like workflows; activation and archiving
 * are per environment and not versioned (ADR 0186).
 */

export const GuideStep = z
  .strictObject({
    ref: ResourceKey,
    name: z.string().max(255).nullable().optional(),
    schema_key: ResourceKey,
    schema_semver: z.string().max(50),
    schema_variant_key: ResourceKey,
    values: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: 'GuideStep' });
export type GuideStepT = z.infer<typeof GuideStep>;

export const GuideActivationUrlPattern = z
  .strictObject({
    directive: z.enum(['allow', 'block']).default('allow'),
    pathname: z.string().max(2000).optional(),
    search: z.string().max(2000).optional(),
  })
  .meta({ id: 'GuideActivationUrlPattern' });
export type GuideActivationUrlPatternT = z.infer<typeof GuideActivationUrlPattern>;

/**
 * A location rule on the page's pathname, as the clients evaluate it (`equal_to`, `contains`).
 * Not in the management reference, which has patterns only; a guide has rules or patterns.
 */
export const GuideActivationUrlRule = z
  .strictObject({
    directive: z.enum(['allow', 'block']).default('allow'),
    variable: z.literal('pathname').default('pathname'),
    operator: z.enum(['equal_to', 'contains']),
    argument: z.string().min(1).max(2000),
  })
  .meta({ id: 'GuideActivationUrlRule' });

export const GuideRequest = z
  .strictObject({
    name: z.string().min(1, 'is required').max(255),
    channel_key: z.string().min(1, 'is required').max(255),
    description: z.string().max(280, 'must be at most 280 characters').nullable().optional(),
    steps: z
      .array(GuideStep)
      .min(1, 'needs at least one step')
      .max(50)
      .superRefine((steps, ctx) => {
        const refs = new Set<string>();
        steps.forEach((s, i) => {
          if (refs.has(s.ref)) ctx.addIssue({ code: 'custom', path: [i, 'ref'], message: 'step refs must be unique' });
          refs.add(s.ref);
        });
      }),
    tags: z.array(z.string().min(1).max(100)).max(50).optional(),
    activation_url_patterns: z.array(GuideActivationUrlPattern).max(50).optional(),
    activation_url_rules: z.array(GuideActivationUrlRule).max(50).optional(),
    target_audience_key: z.string().max(255).nullable().optional(),
    target_property_conditions: ConditionGroup.nullable().optional(),
    guide_audience_conditions: ConditionGroup.nullable().optional(),
    goal_attachment: z.unknown().optional(),
    key: z.string().optional(),
    // Read-only fields a pulled guide carries back.
    active: z.unknown().optional(),
    active_from: z.unknown().optional(),
    active_until: z.unknown().optional(),
    type: z.unknown().optional(),
    semver: z.unknown().optional(),
    ...readOnlyEcho,
  })
  .superRefine((g, ctx) => {
    if (g.activation_url_rules?.length && g.activation_url_patterns?.length)
      ctx.addIssue({
        code: 'custom',
        path: ['activation_url_rules'],
        message: 'a guide has activation_url_rules or activation_url_patterns, not both',
      });
  });
export type GuideRequestT = z.infer<typeof GuideRequest>;

export const Guide = z
  .object({
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    channel_key: z.string(),
    /** The message type of the first step: what kind of guide this is (banner, modal, ...). */
    type: z.string(),
    steps: z.array(z.record(z.string(), z.unknown())),
    tags: z.array(z.string()),
    activation_url_patterns: z.array(z.record(z.string(), z.unknown())),
    activation_url_rules: z.array(z.record(z.string(), z.unknown())).optional(),
    target_audience_key: z.string().nullable(),
    target_property_conditions: z.record(z.string(), z.unknown()).nullable(),
    active: z.boolean(),
    /** When a scheduled activation starts and ends (null: no bound). */
    active_from: z.string().nullable(),
    active_until: z.string().nullable(),
    archived_at: z.null(),
    valid: z.boolean(),
    errors: z.array(ResourceError).optional(),
    environment: z.string(),
    sha: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Guide' });

const GuidePath = z.object({ guide_key: ResourceKey });
const WrappedGuide = z.object({ guide: Guide }).meta({ id: 'WrappedGuide' });

export const GuideActivation = z
  .object({
    status: z.boolean().optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    until: z.iso.datetime({ offset: true }).optional(),
  })
  .superRefine((a, ctx) => {
    if (a.status === false && (a.from !== undefined || a.until !== undefined))
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'cannot be false with a from or until schedule' });
    if (a.from && a.until && Date.parse(a.until) <= Date.parse(a.from))
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after from' });
  })
  .meta({ id: 'GuideActivation' });

// Events

const guideKey = { key: z.string() };
export const GuideUpserted = defineEvent(
  'GuideUpserted',
  1,
  z.object({
    key: z.string(),
    content: z.record(z.string(), z.unknown()),
    sha: z.string(),
    valid: z.boolean(),
    errors: z.array(ResourceError),
    upserted_at: z.string(),
  }),
);
export const GuideActivated = defineEvent(
  'GuideActivated',
  1,
  z.object({ ...guideKey, active_from: z.string().nullable(), active_until: z.string().nullable(), activated_at: z.string() }),
);
export const GuideDeactivated = defineEvent('GuideDeactivated', 1, z.object({ ...guideKey, deactivated_at: z.string() }));
export const GuideArchived = defineEvent('GuideArchived', 1, z.object({ ...guideKey, archived_at: z.string() }));

export const guideEventContracts = [GuideUpserted, GuideActivated, GuideDeactivated, GuideArchived] as const;

// Routes

export const guideRoutes = {
  list: defineRoute({
    operationId: 'listGuides',
    method: 'GET',
    path: '/v1/guides',
    summary: 'List the guides of an environment',
    tags: ['Guides'],
    auth: 'service',
    rateTier: 4,
    query: ReadOptions.extend(MgmtPageQuery.shape),
    response: mgmtListOf(Guide).meta({ id: 'ListGuidesResponse' }),
  }),
  get: defineRoute({
    operationId: 'getGuide',
    method: 'GET',
    path: '/v1/guides/{guide_key}',
    summary: 'Get a guide; its latest version unless hide_uncommitted_changes is set',
    tags: ['Guides'],
    auth: 'service',
    rateTier: 4,
    params: GuidePath,
    query: ReadOptions,
    response: Guide,
  }),
  upsert: defineRoute({
    operationId: 'upsertGuide',
    method: 'PUT',
    path: '/v1/guides/{guide_key}',
    summary: "Create or replace a guide; every step's values must match its message type",
    tags: ['Guides'],
    auth: 'service',
    rateTier: 3,
    params: GuidePath,
    query: WriteOptions,
    body: z.object({ guide: GuideRequest }),
    response: WrappedGuide,
  }),
  validate: defineRoute({
    operationId: 'validateGuide',
    method: 'PUT',
    path: '/v1/guides/{guide_key}/validate',
    summary: 'Validate a guide without saving it',
    tags: ['Guides'],
    auth: 'service',
    rateTier: 3,
    params: GuidePath,
    query: EnvironmentQuery,
    body: z.object({ guide: GuideRequest }),
    response: WrappedGuide,
  }),
  activate: defineRoute({
    operationId: 'activateGuide',
    method: 'PUT',
    path: '/v1/guides/{guide_key}/activate',
    summary: 'Activate or deactivate a guide in an environment, now (status) or for a window (from, until)',
    tags: ['Guides'],
    auth: 'service',
    rateTier: 3,
    params: GuidePath,
    query: EnvironmentQuery.extend({ status: QueryFlag.optional() }),
    body: GuideActivation.optional(),
    response: WrappedGuide,
  }),
  archive: defineRoute({
    operationId: 'archiveGuide',
    method: 'DELETE',
    path: '/v1/guides/{guide_key}',
    summary: 'Archive a guide in every environment: it leaves the lists and is shown to no one',
    tags: ['Guides'],
    auth: 'service',
    scope: 'account',
    rateTier: 3,
    params: GuidePath,
    query: z.object({ environment: z.string().max(63).optional() }),
    response: z.object({ result: z.string() }).meta({ id: 'ArchiveGuideResponse' }),
  }),
};
