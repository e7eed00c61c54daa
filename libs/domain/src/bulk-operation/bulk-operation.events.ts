import type { BulkOperationCompleted, BulkOperationCreated, BulkOperationProgressed, EventOf } from '@notify/contracts';

export type BulkOperationEvent =
  EventOf<typeof BulkOperationCreated> | EventOf<typeof BulkOperationProgressed> | EventOf<typeof BulkOperationCompleted>;
