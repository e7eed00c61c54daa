import type { EventOf, IdempotencyKeyClaimed, IdempotencyKeyReleased, IdempotentResponseRecorded } from '@notify/contracts';

export type IdempotencyEvent =
  EventOf<typeof IdempotencyKeyClaimed> | EventOf<typeof IdempotentResponseRecorded> | EventOf<typeof IdempotencyKeyReleased>;
