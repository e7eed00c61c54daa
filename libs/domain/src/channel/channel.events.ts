import type { ChannelArchived, ChannelConfigured, EventOf } from '@notify/contracts';

export type ChannelEvent = EventOf<typeof ChannelConfigured> | EventOf<typeof ChannelArchived>;
