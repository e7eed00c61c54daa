import { BulkOperationCompleted, BulkOperationCreated, BulkOperationProgressed } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

export const bulkOperationsProjection = defineProjection({
  name: 'bulk-operations',
  version: 1,
  tables: ['rm_bulk_operations'],
  events: [BulkOperationCreated, BulkOperationProgressed, BulkOperationCompleted],
  on: {
    async BulkOperationCreated({ environment, data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_bulk_operations (environment, id, name, status, estimated_total_rows, inserted_at, updated_at)
         VALUES ($1, $2, $3, 'queued', $4, $5, $5) ON CONFLICT DO NOTHING`,
        [environment, d.bulk_operation_id, d.name, d.items.length, d.created_at],
      );
    },
    async BulkOperationProgressed({ environment, data: d }, tx) {
      const errorItems = d.error_items.map((e) => ({ id: e.id, collection: e.collection ?? null }));
      await tx.query(
        `UPDATE rm_bulk_operations SET status = 'processing', processed_rows = $3, success_count = $4, error_count = $5,
           error_items = error_items || $6::jsonb, updated_at = $7, started_at = coalesce(started_at, $7)
         WHERE environment = $1 AND id = $2`,
        [environment, d.bulk_operation_id, d.processed_rows, d.success_count, d.error_count, JSON.stringify(errorItems), d.progressed_at],
      );
    },
    async BulkOperationCompleted({ environment, data: d }, tx) {
      await tx.query(
        `UPDATE rm_bulk_operations SET status = $3, updated_at = $4, started_at = coalesce(started_at, $4),
           completed_at = CASE WHEN $3 = 'completed' THEN $4::timestamptz END, failed_at = CASE WHEN $3 = 'failed' THEN $4::timestamptz END
         WHERE environment = $1 AND id = $2`,
        [environment, d.bulk_operation_id, d.status, d.completed_at],
      );
    },
  },
});
