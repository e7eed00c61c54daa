import { isRecord } from '../support/settings';

/** Device tokens from push channel data: `tokens: string[]` and `devices: [{token}]`, without repeats. */
export function pushTokens(channelData: Record<string, unknown> | null | undefined): string[] {
  const tokens = new Set<string>();
  if (!channelData) return [];
  if (Array.isArray(channelData.tokens))
    for (const token of channelData.tokens) if (typeof token === 'string' && token.trim()) tokens.add(token.trim());
  if (Array.isArray(channelData.devices)) {
    for (const device of channelData.devices)
      if (isRecord(device) && typeof device.token === 'string' && device.token.trim()) tokens.add(device.token.trim());
  }
  return [...tokens];
}
