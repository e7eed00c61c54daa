import { keysetPage, KeysetResult } from '@notify/database';
import { DataSource } from 'typeorm';

export interface SuppressionRecord extends Record<string, unknown> {
  address: string;
  reason: 'hard_bounce' | 'complaint' | 'manual';
  message_id: string | null;
  source: string | null;
  detail: string | null;
  inserted_at: Date;
}

const COLUMNS = 'address, reason, message_id, source, detail, inserted_at';

export class SuppressionQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, address: string): Promise<SuppressionRecord | undefined> {
    return (
      await this.db.query<SuppressionRecord[]>(`SELECT ${COLUMNS} FROM rm_suppressions WHERE environment = $1 AND address = $2`, [
        environment,
        address,
      ])
    )[0];
  }

  /** Which of these (normalised) addresses are suppressed, with why. */
  async find(environment: string, addresses: readonly string[]): Promise<SuppressionRecord[]> {
    if (!addresses.length) return [];
    return this.db.query<SuppressionRecord[]>(
      `SELECT ${COLUMNS} FROM rm_suppressions WHERE environment = $1 AND address = ANY($2::text[])`,
      [environment, addresses],
    );
  }

  list(
    environment: string,
    page: { pageSize: number; after?: string; before?: string; reason?: string },
  ): Promise<KeysetResult<SuppressionRecord>> {
    return keysetPage<SuppressionRecord>(this.db, {
      select: COLUMNS,
      from: 'FROM rm_suppressions WHERE environment = $1 AND ($2::text IS NULL OR reason = $2)',
      params: [environment, page.reason ?? null],
      order: [
        { expr: 'inserted_at', type: 'timestamptz' },
        { expr: 'address', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.pageSize,
      after: page.after,
      before: page.before,
    });
  }
}
