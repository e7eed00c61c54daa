import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { RecipientId } from './common';
import { CollectionName, RecipientRef } from './refs';

const Token = z.string().min(1).max(4096);
const DeviceLocale = z.string().max(35).nullable().optional();
const DeviceTimezone = z.string().max(64).nullable().optional();

// Push (FCM, APNs, Expo, ...): tokens, devices, or both.
const PushTokensOnly = z.strictObject({ tokens: z.array(Token).max(1000) });
const PushDevice = z.strictObject({ token: Token, locale: DeviceLocale, timezone: DeviceTimezone });
const PushDevicesOnly = z.strictObject({ devices: z.array(PushDevice).max(1000) });
const PushFull = z.strictObject({ tokens: z.array(Token).max(1000), devices: z.array(PushDevice).max(1000) });
export const PushChannelData = z.union([PushFull, PushTokensOnly, PushDevicesOnly]);

// Amazon SNS push: target ARNs.
const SnsDevice = z.strictObject({ target_arn: Token, locale: DeviceLocale, timezone: DeviceTimezone });
const SnsArnsOnly = z.strictObject({ target_arns: z.array(Token).max(1000) });
const SnsDevicesOnly = z.strictObject({ devices: z.array(SnsDevice).max(1000) });
const SnsFull = z.strictObject({ target_arns: z.array(Token).max(1000), devices: z.array(SnsDevice).max(1000) });
export const AwsSnsChannelData = z.union([SnsFull, SnsArnsOnly, SnsDevicesOnly]);

/**
 * An id the reference types as `format: uuid`: any RFC 4122 hexadecimal 8-4-4-4-12 shape, whatever
 * its version and variant bits (ids issued by Microsoft or OneSignal need not be version 4).
 */
const ProviderUuid = z.guid({ message: 'Invalid UUID: expected 32 hexadecimal digits as 8-4-4-4-12' });

// OneSignal push: player ids.
export const OneSignalChannelData = z.strictObject({ player_ids: z.array(ProviderUuid).max(1000) });

const WebhookUrl = z.url().max(2048);
const IncomingWebhook = z.strictObject({ incoming_webhook: z.strictObject({ url: WebhookUrl }) });

// Slack: connections by token (channel or user) or incoming webhook; an optional bot token.
const SlackTokenConnection = z.strictObject({
  access_token: z.string().max(1000).nullable().optional(),
  channel_id: z.string().max(255).nullable().optional(),
  channel_name: z.string().max(255).nullable().optional(),
  user_id: z.string().max(255).nullable().optional(),
});
export const SlackChannelData = z.strictObject({
  connections: z.array(z.union([IncomingWebhook, SlackTokenConnection])).max(1000),
  token: z
    .strictObject({ access_token: z.string().max(1000).nullable() })
    .nullable()
    .optional(),
});

// Microsoft Teams: connections to a channel or user (by ids) or incoming webhook.
const TeamsTokenConnection = z.strictObject({
  ms_teams_channel_id: ProviderUuid.nullable().optional(),
  ms_teams_team_id: ProviderUuid.nullable().optional(),
  ms_teams_tenant_id: ProviderUuid.nullable().optional(),
  ms_teams_user_id: ProviderUuid.nullable().optional(),
});
export const MsTeamsChannelData = z.strictObject({
  connections: z.array(z.union([IncomingWebhook, TeamsTokenConnection])).max(1000),
  ms_teams_tenant_id: ProviderUuid.nullable().optional(),
});

// Discord: connections to a channel or incoming webhook.
export const DiscordChannelData = z.strictObject({
  connections: z.array(z.union([IncomingWebhook, z.strictObject({ channel_id: z.string().min(1).max(255) })])).max(1000),
});

/** Any shape the API accepts; which one a channel takes is checked against its type and provider. */
export const ChannelDataPayload = z
  .union([PushChannelData, AwsSnsChannelData, OneSignalChannelData, SlackChannelData, MsTeamsChannelData, DiscordChannelData])
  .meta({ id: 'ChannelDataPayload' });
export type ChannelDataPayloadT = z.infer<typeof ChannelDataPayload>;

/** The shape a channel of this type and provider takes; undefined when it takes no channel data. */
export function channelDataSchemaFor(type: string, provider: string): z.ZodType | undefined {
  const p = provider.toLowerCase();
  if (type === 'push') {
    if (p.includes('sns')) return AwsSnsChannelData;
    if (p.includes('one_signal') || p.includes('onesignal')) return OneSignalChannelData;
    return PushChannelData;
  }
  if (type === 'chat') {
    if (p.includes('slack')) return SlackChannelData;
    if (p.includes('teams')) return MsTeamsChannelData;
    if (p.includes('discord')) return DiscordChannelData;
    return z.union([SlackChannelData, MsTeamsChannelData, DiscordChannelData]);
  }
  return undefined;
}

export const ChannelDataRequest = z.strictObject({ data: ChannelDataPayload }).meta({ id: 'ChannelDataRequest' });

/** Channel data given inline with identify or set: keyed by channel id. */
export const InlineChannelDataRequest = z.record(z.uuid(), ChannelDataPayload);

export const CHANNEL_DATA_PROVIDERS = [
  'push_fcm',
  'push_apns',
  'push_aws_sns',
  'push_expo',
  'push_one_signal',
  'chat_slack',
  'chat_ms_teams',
  'chat_discord',
  'http_knock_webhook',
] as const;

export const ChannelData = z
  .object({
    __typename: z.literal('ChannelData'),
    channel_id: z.string(),
    data: z.record(z.string(), z.unknown()),
    provider: z.enum(CHANNEL_DATA_PROVIDERS).optional(),
  })
  .meta({ id: 'ChannelData' });
export type ChannelDataT = z.infer<typeof ChannelData>;

// Events: on the recipient's own stream.

export const ChannelDataSet = defineEvent(
  'ChannelDataSet',
  1,
  z.object({
    recipient: RecipientRef,
    channel_id: z.string(),
    channel_type: z.string(),
    provider: z.string(),
    data: z.record(z.string(), z.unknown()),
    set_at: z.string(),
  }),
);

export const ChannelDataUnset = defineEvent(
  'ChannelDataUnset',
  1,
  z.object({ recipient: RecipientRef, channel_id: z.string(), unset_at: z.string() }),
);

export const channelDataEventContracts = [ChannelDataSet, ChannelDataUnset] as const;

// Routes

const UserChannelPath = z.object({ user_id: RecipientId, channel_id: z.uuid() });
const ObjectChannelPath = z.object({ collection: CollectionName, object_id: RecipientId, channel_id: z.uuid() });

export const getUserChannelDataRoute = defineRoute({
  operationId: 'getUserChannelData',
  method: 'GET',
  path: '/v1/users/{user_id}/channel_data/{channel_id}',
  summary: "Get a user's data for one channel",
  tags: ['Channel data'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 4,
  params: UserChannelPath,
  response: ChannelData,
});

export const setUserChannelDataRoute = defineRoute({
  operationId: 'setUserChannelData',
  method: 'PUT',
  path: '/v1/users/{user_id}/channel_data/{channel_id}',
  summary: "Set a user's data for one channel; creates the user when absent",
  tags: ['Channel data'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 3,
  params: UserChannelPath,
  body: ChannelDataRequest,
  response: ChannelData,
});

export const unsetUserChannelDataRoute = defineRoute({
  operationId: 'unsetUserChannelData',
  method: 'DELETE',
  path: '/v1/users/{user_id}/channel_data/{channel_id}',
  summary: "Remove a user's data for one channel",
  tags: ['Channel data'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 3,
  params: UserChannelPath,
  response: null,
});

export const getObjectChannelDataRoute = defineRoute({
  operationId: 'getObjectChannelData',
  method: 'GET',
  path: '/v1/objects/{collection}/{object_id}/channel_data/{channel_id}',
  summary: "Get an object's data for one channel",
  tags: ['Channel data'],
  auth: 'secret',
  rateTier: 4,
  params: ObjectChannelPath,
  response: ChannelData,
});

export const setObjectChannelDataRoute = defineRoute({
  operationId: 'setObjectChannelData',
  method: 'PUT',
  path: '/v1/objects/{collection}/{object_id}/channel_data/{channel_id}',
  summary: "Set an object's data for one channel; creates the object when absent",
  tags: ['Channel data'],
  auth: 'secret',
  rateTier: 3,
  params: ObjectChannelPath,
  body: ChannelDataRequest,
  response: ChannelData,
});

export const unsetObjectChannelDataRoute = defineRoute({
  operationId: 'unsetObjectChannelData',
  method: 'DELETE',
  path: '/v1/objects/{collection}/{object_id}/channel_data/{channel_id}',
  summary: "Remove an object's data for one channel",
  tags: ['Channel data'],
  auth: 'secret',
  rateTier: 3,
  params: ObjectChannelPath,
  response: null,
});
