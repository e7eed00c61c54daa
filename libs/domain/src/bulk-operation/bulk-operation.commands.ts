import type { BulkOperationKindT } from '@notify/contracts';

export interface BulkItemError {
  index: number;
  id: string;
  collection?: string | null;
  reason: string;
}

export type BulkOperationCommand =
  | {
      type: 'CreateBulkOperation';
      bulkOperationId: string;
      kind: BulkOperationKindT;
      name: string;
      collection: string | null;
      items: unknown[];
      now: string;
    }
  /** Records that items [from, to) were processed, with their outcome. */
  | { type: 'RecordBulkProgress'; bulkOperationId: string; from: number; to: number; errors: BulkItemError[]; now: string }
  | { type: 'CompleteBulkOperation'; bulkOperationId: string; now: string };
