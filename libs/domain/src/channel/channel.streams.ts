/** Channels belong to the account; their settings are kept per environment inside. */
export const channelStream = (key: string) => `channel-${key}`;
