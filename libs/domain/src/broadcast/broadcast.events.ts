import type {
  BroadcastCanceled,
  BroadcastPageSent,
  BroadcastPageStarted,
  BroadcastScheduled,
  BroadcastSendStarted,
  BroadcastSent,
  BroadcastUpserted,
  EventOf,
} from '@notify/contracts';

export type BroadcastEvent =
  | EventOf<typeof BroadcastUpserted>
  | EventOf<typeof BroadcastScheduled>
  | EventOf<typeof BroadcastSendStarted>
  | EventOf<typeof BroadcastPageStarted>
  | EventOf<typeof BroadcastPageSent>
  | EventOf<typeof BroadcastSent>
  | EventOf<typeof BroadcastCanceled>;

export const broadcastStream = (environment: string, key: string) => `broadcast-${environment}-${key}`;
