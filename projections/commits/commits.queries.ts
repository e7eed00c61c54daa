import { CommitT, MgmtPageInfoT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

interface CommitRow extends Record<string, unknown> {
  environment: string;
  id: string;
  resource_type: CommitT['resource']['type'];
  identifier: string;
  sha: string;
  message: string | null;
  author: CommitT['author'];
  created_at: Date;
  promoted_at: Date | null;
}

export interface CommitRecord extends CommitT {
  sha: string;
}

const toCommit = (row: CommitRow): CommitRecord => ({
  id: row.id,
  resource: { type: row.resource_type, identifier: row.identifier },
  author: row.author,
  // Left out when the commit has none (the reference types it as a string).
  ...(row.message === null ? {} : { commit_message: row.message }),
  environment: row.environment,
  created_at: row.created_at.toISOString(),
  promoted_at: row.promoted_at?.toISOString() ?? null,
  sha: row.sha,
});

const COLUMNS = 'c.environment, c.id::text AS id, c.resource_type, c.identifier, c.sha, c.message, c.author, c.created_at, c.promoted_at';

export interface CommitFilter {
  promoted?: boolean;
  types?: string[];
  identifier?: string;
}

export class CommitQueries {
  constructor(private readonly db: DataSource) {}

  async list(
    environment: string,
    page: { after?: string; before?: string; limit: number },
    filter: CommitFilter = {},
  ): Promise<{ entries: CommitRecord[]; page_info: MgmtPageInfoT }> {
    const { where, params } = conditions(environment, filter);
    const { rows, pageInfo } = await keysetPage<CommitRow>(this.db, {
      select: COLUMNS,
      from: `FROM rm_commits c WHERE ${where}`,
      params,
      order: [
        { expr: 'c.created_at', type: 'timestamptz' },
        { expr: 'c.id::text', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return { entries: rows.map(toCommit), page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size } };
  }

  /** Commits made in `environment` and not yet promoted, oldest first: what a promotion carries. */
  async unpromoted(environment: string, filter: CommitFilter = {}): Promise<CommitRecord[]> {
    const { where, params } = conditions(environment, { ...filter, promoted: false });
    const rows = await this.db.query<CommitRow[]>(
      `SELECT ${COLUMNS} FROM rm_commits c WHERE ${where} AND c.origin ORDER BY c.created_at, c.id`,
      params,
    );
    return rows.map(toCommit);
  }

  /** When the latest commit arrived in `environment` (made there, or promoted to it). */
  async lastCommitAt(environment: string): Promise<Date | null> {
    const [row] = await this.db.query<{ at: Date | null }[]>('SELECT max(created_at) AS at FROM rm_commits WHERE environment = $1', [
      environment,
    ]);
    return row?.at ?? null;
  }

  /** By id alone: commit ids are unique across environments; this is the commit where it was made. */
  async byId(id: string): Promise<CommitRecord | undefined> {
    const rows = await this.db.query<CommitRow[]>(`SELECT ${COLUMNS} FROM rm_commits c WHERE c.id = $1 AND c.origin`, [id]);
    return rows[0] && toCommit(rows[0]);
  }
}

function conditions(environment: string, filter: CommitFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [environment];
  let where = 'c.environment = $1';
  if (filter.promoted !== undefined) where += filter.promoted ? ' AND c.promoted_at IS NOT NULL' : ' AND c.promoted_at IS NULL';
  if (filter.types?.length) {
    params.push(filter.types);
    where += ` AND c.resource_type = ANY($${params.length})`;
  }
  if (filter.identifier) {
    params.push(filter.identifier);
    where += ` AND c.identifier = $${params.length}`;
  }
  return { where, params };
}
