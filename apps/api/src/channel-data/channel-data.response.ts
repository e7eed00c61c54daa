import { CHANNEL_DATA_PROVIDERS, ChannelDataT } from '@notify/contracts';

/** The API's channel data body; the provider shows when it is one the API names. */
export function toChannelData(channelId: string, provider: string, data: Record<string, unknown>): ChannelDataT {
  const known = (CHANNEL_DATA_PROVIDERS as readonly string[]).includes(provider) ? { provider: provider as ChannelDataT['provider'] } : {};
  return { __typename: 'ChannelData', channel_id: channelId, data: withBothForms(data), ...known };
}

type Device = { locale?: string | null; timezone?: string | null } & Record<string, unknown>;

/**
 * Push data is written as tokens, devices or both, and always answered in both forms, as the
 * reference's full variants have it (ADR 0117): `tokens` lists every token (the plain ones, then
 * those only a device names) and `devices` every device (the described ones, then one per plain
 * token with no locale or time zone). Amazon SNS data likewise with `target_arns`. Delivery
 * reaches the same set either way; what is stored is what was written.
 */
export function withBothForms(data: Record<string, unknown>): Record<string, unknown> {
  const devices = Array.isArray(data.devices) ? (data.devices as Device[]) : undefined;
  const sns = Array.isArray(data.target_arns) || devices?.some((d) => typeof d.target_arn === 'string');
  const push = Array.isArray(data.tokens) || devices?.some((d) => typeof d.token === 'string');
  if (sns) return merge(data, 'target_arns', 'target_arn');
  if (push) return merge(data, 'tokens', 'token');
  return data;
}

function merge(
  data: Record<string, unknown>,
  listKey: 'tokens' | 'target_arns',
  deviceKey: 'token' | 'target_arn',
): Record<string, unknown> {
  const plain = Array.isArray(data[listKey]) ? (data[listKey] as string[]) : [];
  const described = (Array.isArray(data.devices) ? (data.devices as Device[]) : []).map((d): Device => ({
    ...d,
    locale: d.locale ?? null,
    timezone: d.timezone ?? null,
  }));
  const onDevices = new Set(described.map((d) => d[deviceKey] as string));
  const tokens = [...new Set([...plain, ...described.map((d) => d[deviceKey] as string)])];
  const devices = [
    ...described,
    ...[...new Set(plain)].filter((t) => !onDevices.has(t)).map((t) => ({ [deviceKey]: t, locale: null, timezone: null })),
  ];
  return { ...data, [listKey]: tokens, devices };
}
