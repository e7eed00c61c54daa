import { CHANNEL_DATA_PROVIDERS, ChannelDataT } from '@notify/contracts';

/** The API's channel data body; the provider shows when it is one the API names. */
export function toChannelData(channelId: string, provider: string, data: Record<string, unknown>): ChannelDataT {
  const known = (CHANNEL_DATA_PROVIDERS as readonly string[]).includes(provider) ? { provider: provider as ChannelDataT['provider'] } : {};
  return { __typename: 'ChannelData', channel_id: channelId, data, ...known };
}
