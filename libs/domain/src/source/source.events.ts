import type { EventOf, SourceActionsRan, SourceEventReceived, SourceUpserted } from '@notify/contracts';

export type SourceEvent = EventOf<typeof SourceUpserted>;
export type SourceLogEvent = EventOf<typeof SourceEventReceived> | EventOf<typeof SourceActionsRan>;
