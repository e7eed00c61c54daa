import { z } from 'zod';
import { defineEvent } from '../events/define-event';

export const ChannelType = z.enum(['email', 'in_app', 'in_app_feed', 'in_app_guide', 'sms', 'push', 'chat', 'http']);
export type ChannelTypeT = z.infer<typeof ChannelType>;

export const ChannelKey = z.string().regex(/^[a-z0-9_-]+$/, 'lowercase letters, digits, _ and -').min(1).max(255);

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

export const ChannelArchived = defineEvent('ChannelArchived', 1, z.object({ channel_id: z.uuid(), key: ChannelKey, archived_at: z.string() }));

export const channelEventContracts = [ChannelConfigured, ChannelArchived] as const;
