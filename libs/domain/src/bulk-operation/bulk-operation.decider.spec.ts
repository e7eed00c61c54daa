import { deciderSpec } from '@notify/testing/decider-spec';
import { bulkOperationDecider } from './bulk-operation.decider';

const now = '2026-01-01T00:00:00.000Z';
const id = '0b5a0d8e-0000-4000-8000-000000000001';
const created = {
  type: 'BulkOperationCreated' as const,
  data: {
    bulk_operation_id: id,
    kind: 'users.delete' as const,
    name: 'users.delete',
    collection: null,
    items: ['a', 'b', 'c'],
    created_at: now,
  },
};
const progressed = (
  processed: number,
  success: number,
  errors: number,
  errorItems: { index: number; id: string; collection: null; reason: string }[] = [],
) => ({
  type: 'BulkOperationProgressed' as const,
  data: {
    bulk_operation_id: id,
    processed_rows: processed,
    success_count: success,
    error_count: errors,
    error_items: errorItems,
    progressed_at: now,
  },
});

describe('bulk operation decider', () => {
  const spec = deciderSpec(bulkOperationDecider);

  it('creates once', () => {
    spec
      .given([])
      .when({
        type: 'CreateBulkOperation',
        bulkOperationId: id,
        kind: 'users.delete',
        name: 'users.delete',
        collection: null,
        items: ['a', 'b', 'c'],
        now,
      })
      .then([created]);
    spec
      .given([created])
      .when({
        type: 'CreateBulkOperation',
        bulkOperationId: id,
        kind: 'users.delete',
        name: 'users.delete',
        collection: null,
        items: ['a'],
        now,
      })
      .thenNothing();
  });

  it('counts progress chunk by chunk, and ignores a chunk already recorded', () => {
    spec
      .given([created])
      .when({ type: 'RecordBulkProgress', bulkOperationId: id, from: 0, to: 2, errors: [{ index: 1, id: 'b', reason: 'boom' }], now })
      .then([progressed(2, 1, 1, [{ index: 1, id: 'b', collection: null, reason: 'boom' }])]);
    spec
      .given([created, progressed(2, 1, 1)])
      .when({ type: 'RecordBulkProgress', bulkOperationId: id, from: 0, to: 2, errors: [], now })
      .thenNothing();
    spec
      .given([created, progressed(2, 1, 1)])
      .when({ type: 'RecordBulkProgress', bulkOperationId: id, from: 2, to: 3, errors: [], now })
      .then([progressed(3, 2, 1)]);
  });

  it('refuses progress that skips items', () => {
    spec
      .given([created])
      .when({ type: 'RecordBulkProgress', bulkOperationId: id, from: 1, to: 2, errors: [], now })
      .thenThrows('bulk_progress_out_of_order');
  });

  it('completes once every item is processed; failed when every item failed', () => {
    const done = {
      type: 'BulkOperationCompleted' as const,
      data: { bulk_operation_id: id, status: 'completed' as const, completed_at: now },
    };
    spec
      .given([created, progressed(3, 2, 1)])
      .when({ type: 'CompleteBulkOperation', bulkOperationId: id, now })
      .then([done]);
    spec
      .given([created, progressed(3, 0, 3)])
      .when({ type: 'CompleteBulkOperation', bulkOperationId: id, now })
      .then([{ ...done, data: { ...done.data, status: 'failed' } }]);
    spec
      .given([created, progressed(2, 2, 0)])
      .when({ type: 'CompleteBulkOperation', bulkOperationId: id, now })
      .thenThrows('bulk_operation_incomplete');
    spec
      .given([created, progressed(3, 3, 0), done])
      .when({ type: 'CompleteBulkOperation', bulkOperationId: id, now })
      .thenNothing();
  });
});
