import { BulkOperationT } from '@notify/contracts';
import { DataSource } from 'typeorm';

interface Row {
  id: string;
  name: string;
  status: BulkOperationT['status'];
  estimated_total_rows: number;
  processed_rows: number;
  success_count: number;
  error_count: number;
  error_items: { id: string; collection: string | null }[];
  inserted_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  failed_at: Date | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toBulkOperation(row: Row): BulkOperationT {
  return {
    __typename: 'BulkOperation',
    id: row.id,
    name: row.name,
    status: row.status,
    estimated_total_rows: row.estimated_total_rows,
    processed_rows: row.processed_rows,
    success_count: row.success_count,
    error_count: row.error_count,
    error_items: row.error_items,
    progress_path: `/v1/bulk_operations/${row.id}`,
    inserted_at: iso(row.inserted_at)!,
    updated_at: iso(row.updated_at)!,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    failed_at: iso(row.failed_at),
  };
}

/** Every query is scoped by the environment it is given. */
export class BulkOperationQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, id: string): Promise<BulkOperationT | undefined> {
    const rows = await this.db.query<Row[]>('SELECT * FROM rm_bulk_operations WHERE environment = $1 AND id = $2', [environment, id]);
    return rows[0] && toBulkOperation(rows[0]);
  }
}
