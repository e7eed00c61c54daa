import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface BranchRecord {
  parent_environment: string;
  slug: string;
  environment: string;
  created_at: Date;
  updated_at: Date;
  last_commit_at: Date | null;
}

const COLUMNS = 'b.parent_environment, b.slug, b.environment, b.created_at, b.updated_at, b.last_commit_at';

export class BranchQueries {
  constructor(private readonly db: DataSource) {}

  async get(parent: string, slug: string): Promise<BranchRecord | undefined> {
    const rows = await this.db.query<BranchRecord[]>(
      `SELECT ${COLUMNS} FROM rm_branches b WHERE b.parent_environment = $1 AND b.slug = $2`,
      [parent, slug],
    );
    return rows[0];
  }

  /** Latest commit first; a branch never committed to counts from its creation. */
  async list(parent: string, page: { after?: string; before?: string; limit: number }) {
    return keysetPage<BranchRecord & Record<string, unknown>>(this.db, {
      select: COLUMNS,
      from: 'FROM rm_branches b WHERE b.parent_environment = $1',
      params: [parent],
      order: [
        { expr: 'coalesce(b.last_commit_at, b.created_at)', type: 'timestamptz' },
        { expr: 'b.slug', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
  }
}
