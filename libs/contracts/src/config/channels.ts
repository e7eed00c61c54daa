import { z } from 'zod';
import { queryInt } from '../http/pagination';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';

export const ChannelType = z.enum(['email', 'in_app', 'in_app_feed', 'in_app_guide', 'sms', 'push', 'chat', 'http']);
export type ChannelTypeT = z.infer<typeof ChannelType>;

export const ChannelKey = z
  .string()
  .regex(/^[a-z0-9_-]+$/, 'lowercase letters, digits, _ and -')
  .min(1)
  .max(255);

/** What a channel is configured with in one environment. */
export const ChannelEnvironmentSettings = z.object({
  channel_settings: z.record(z.string(), z.unknown()).default({}),
  /** Provider credentials and options; secret values never appear in reads. */
  provider_settings: z.record(z.string(), z.unknown()).default({}),
  is_sandbox: z.boolean().default(false),
});

export const ChannelConfigured = defineEvent(
  'ChannelConfigured',
  1,
  z.object({
    /** Stable id used by the public API (channel data, feeds); assigned when first configured. */
    channel_id: z.uuid(),
    key: ChannelKey,
    name: z.string().min(1).max(255),
    type: ChannelType,
    provider: z.string().min(1).max(100),
    description: z.string().max(1000).nullable().default(null),
    /** Keyed by environment slug. */
    environment_settings: z.record(z.string(), ChannelEnvironmentSettings),
    configured_at: z.string(),
  }),
);

export const ChannelArchived = defineEvent(
  'ChannelArchived',
  1,
  z.object({ channel_id: z.uuid(), key: ChannelKey, archived_at: z.string() }),
);

export const channelEventContracts = [ChannelConfigured, ChannelArchived] as const;

// Management API: channels and channel groups (account-wide, settings per environment)

const ChannelSettingsResponse = z.object({
  id: z.uuid(),
  channel_settings: z.record(z.string(), z.unknown()),
  /** Secret values are shown as ******** (Liquid references to variables are shown as they are). */
  provider_settings: z.record(z.string(), z.unknown()),
  is_sandbox: z.boolean(),
  is_valid: z.boolean(),
});

export const Channel = z
  .object({
    id: z.uuid(),
    key: z.string(),
    name: z.string(),
    type: ChannelType,
    provider: z.string(),
    description: z.string().nullable(),
    visible_in: z.array(z.enum(['workflow', 'broadcast'])),
    created_at: z.string(),
    updated_at: z.string(),
    archived_at: z.string().nullable(),
    environment_settings: z.record(z.string(), ChannelSettingsResponse).optional(),
  })
  .meta({ id: 'Channel' });
export type ChannelT = z.infer<typeof Channel>;

export const ChannelRequest = z.strictObject({
  name: z.string().min(1, 'is required').max(255),
  type: ChannelType,
  provider: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9_-]+$/, 'must contain only lowercase letters, digits, _ and -'),
  description: z.string().max(1000).nullable().optional(),
  /** Keyed by environment slug; environments not named keep their settings. */
  environment_settings: z
    .record(
      z.string().min(1).max(63),
      z.strictObject({
        channel_settings: z.record(z.string(), z.unknown()).optional(),
        provider_settings: z.record(z.string(), z.unknown()).optional(),
        is_sandbox: z.boolean().optional(),
        /** Read-only; accepted so a channel read can be written back. */
        id: z.unknown().optional(),
        is_valid: z.unknown().optional(),
      }),
    )
    .optional(),
  key: z.unknown().optional(),
  id: z.unknown().optional(),
  visible_in: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  archived_at: z.unknown().optional(),
});

const MgmtPage = {
  after: z.string().max(1024).optional(),
  before: z.string().max(1024).optional(),
  limit: queryInt(z.number().int().min(1).max(100)).default(50),
};
const MgmtPageInfoShape = z.object({ after: z.string().nullable(), before: z.string().nullable(), page_size: z.number().int() });
const Include = z.preprocess(
  (v) => (v === undefined || Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.values(v) : [v]),
  z.array(z.enum(['environment_settings'])),
);

export const listChannelsRoute = defineRoute({
  operationId: 'listChannels',
  method: 'GET',
  path: '/v1/channels',
  summary: 'List the channels of the account, by key',
  tags: ['Channels'],
  auth: 'service',
  rateTier: 4,
  scope: 'account',
  query: z.object({ ...MgmtPage, id: z.uuid().optional(), include: Include.optional() }),
  response: z.object({ entries: z.array(Channel), page_info: MgmtPageInfoShape }).meta({ id: 'ListChannelsResponse' }),
});

const ChannelPath = z.object({ channel_key: ChannelKey });

export const getChannelRoute = defineRoute({
  operationId: 'getChannel',
  method: 'GET',
  path: '/v1/channels/{channel_key}',
  summary: 'Get a channel with its settings in every environment (secrets obfuscated)',
  tags: ['Channels'],
  auth: 'service',
  rateTier: 4,
  scope: 'account',
  params: ChannelPath,
  response: Channel,
});

export const upsertChannelRoute = defineRoute({
  operationId: 'upsertChannel',
  method: 'PUT',
  path: '/v1/channels/{channel_key}',
  summary: 'Configure a channel: type (fixed once created), provider and settings per environment',
  tags: ['Channels'],
  auth: 'service',
  rateTier: 3,
  scope: 'account',
  params: ChannelPath,
  body: z.object({ channel: ChannelRequest }),
  response: z.object({ channel: Channel }),
});

// Channel groups

const RuleOperator = z.enum([
  'equal_to',
  'not_equal_to',
  'greater_than',
  'less_than',
  'greater_than_or_equal_to',
  'less_than_or_equal_to',
  'contains',
  'not_contains',
  'contains_all',
  'not_contains_all',
  'is_timestamp_before',
  'is_timestamp_on_or_after',
  'is_timestamp_between',
  'is_between',
  'empty',
  'not_empty',
  'exists',
  'not_exists',
  'is_timestamp',
  'is_timestamp_before_now',
  'is_timestamp_on_or_after_now',
  'is_audience_member',
  'is_not_audience_member',
  'is_in_random_cohort',
]);

export const ChannelGroupRuleRequest = z
  .strictObject({
    channel_key: ChannelKey,
    rule_type: z.enum(['if', 'unless', 'always']),
    index: z.number().int().min(0).optional(),
    variable: z.string().min(1).max(1000).optional(),
    operator: RuleOperator.optional(),
    argument: z.string().max(1000).optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.rule_type === 'always') return;
    if (!rule.variable) ctx.addIssue({ code: 'custom', path: ['variable'], message: `is required for ${rule.rule_type} rules` });
    if (!rule.operator) ctx.addIssue({ code: 'custom', path: ['operator'], message: `is required for ${rule.rule_type} rules` });
    if (rule.operator === 'is_in_random_cohort') {
      if (rule.variable !== 'recipient.id')
        ctx.addIssue({ code: 'custom', path: ['variable'], message: 'must be recipient.id for is_in_random_cohort' });
      const pct = Number(rule.argument);
      if (!/^\d{1,3}(\.\d)?$/.test(rule.argument ?? '') || pct > 100)
        ctx.addIssue({ code: 'custom', path: ['argument'], message: 'must be a percentage from 0 to 100 with at most one decimal place' });
    }
  });

export const ChannelGroupRequest = z.strictObject({
  name: z.string().min(1, 'is required').max(255),
  channel_type: ChannelType,
  operator: z.enum(['any', 'all']).optional(),
  channel_rules: z.array(ChannelGroupRuleRequest).max(20).optional(),
  visible_in: z
    .array(z.enum(['workflow', 'broadcast']))
    .max(2)
    .optional(),
  key: z.unknown().optional(),
  source: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  archived_at: z.unknown().optional(),
});

export const ChannelGroup = z
  .object({
    key: z.string(),
    name: z.string(),
    channel_type: ChannelType,
    operator: z.enum(['any', 'all']),
    source: z.literal('user'),
    visible_in: z.array(z.enum(['workflow', 'broadcast'])),
    channel_rules: z.array(
      z.object({
        index: z.number().int(),
        rule_type: z.enum(['if', 'unless', 'always']),
        variable: z.string().optional(),
        operator: z.string().optional(),
        argument: z.string().optional(),
        channel: Channel,
        created_at: z.string(),
        updated_at: z.string(),
      }),
    ),
    created_at: z.string(),
    updated_at: z.string(),
    archived_at: z.string().nullable(),
  })
  .meta({ id: 'ChannelGroup' });
export type ChannelGroupT = z.infer<typeof ChannelGroup>;

const StoredRule = z.object({
  index: z.number().int(),
  rule_type: z.enum(['if', 'unless', 'always']),
  channel_key: z.string(),
  variable: z.string().optional(),
  operator: z.string().optional(),
  argument: z.string().optional(),
});

export const ChannelGroupUpserted = defineEvent(
  'ChannelGroupUpserted',
  1,
  z.object({
    key: ChannelKey,
    name: z.string(),
    channel_type: ChannelType,
    operator: z.enum(['any', 'all']),
    visible_in: z.array(z.enum(['workflow', 'broadcast'])),
    channel_rules: z.array(StoredRule),
    upserted_at: z.string(),
  }),
);
export const ChannelGroupArchived = defineEvent('ChannelGroupArchived', 1, z.object({ key: ChannelKey, archived_at: z.string() }));

export const channelGroupEventContracts = [ChannelGroupUpserted, ChannelGroupArchived] as const;

const GroupPath = z.object({ channel_group_key: ChannelKey });

export const listChannelGroupsRoute = defineRoute({
  operationId: 'listChannelGroups',
  method: 'GET',
  path: '/v1/channel_groups',
  summary: 'List the channel groups of the account, by key',
  tags: ['Channel groups'],
  auth: 'service',
  rateTier: 4,
  scope: 'account',
  query: z.object(MgmtPage),
  response: z.object({ entries: z.array(ChannelGroup), page_info: MgmtPageInfoShape }).meta({ id: 'ListChannelGroupsResponse' }),
});

export const getChannelGroupRoute = defineRoute({
  operationId: 'getChannelGroup',
  method: 'GET',
  path: '/v1/channel_groups/{channel_group_key}',
  summary: 'Get a channel group',
  tags: ['Channel groups'],
  auth: 'service',
  rateTier: 4,
  scope: 'account',
  params: GroupPath,
  response: ChannelGroup,
});

export const upsertChannelGroupRoute = defineRoute({
  operationId: 'upsertChannelGroup',
  method: 'PUT',
  path: '/v1/channel_groups/{channel_group_key}',
  summary: 'Create or replace a channel group; every rule names a channel of the group type',
  tags: ['Channel groups'],
  auth: 'service',
  rateTier: 3,
  scope: 'account',
  params: GroupPath,
  body: z.object({ channel_group: ChannelGroupRequest }),
  response: z.object({ channel_group: ChannelGroup }),
});

export const deleteChannelGroupRoute = defineRoute({
  operationId: 'deleteChannelGroup',
  method: 'DELETE',
  path: '/v1/channel_groups/{channel_group_key}',
  summary: 'Archive a channel group',
  tags: ['Channel groups'],
  auth: 'service',
  rateTier: 3,
  scope: 'account',
  params: GroupPath,
  response: null,
});
