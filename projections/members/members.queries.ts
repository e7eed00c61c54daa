import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface MemberRecord {
  id: string;
  user_id: string;
  email: string;
  name: string | null;
  role: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'm.id::text AS id, m.user_id::text AS user_id, m.email, m.name, m.role, m.created_at, m.updated_at';

/** Members are account-wide: no environment to scope by. */
export class MemberQueries {
  constructor(private readonly db: DataSource) {}

  async get(id: string): Promise<MemberRecord | undefined> {
    return (await this.db.query<MemberRecord[]>(`SELECT ${COLUMNS} FROM rm_members m WHERE m.id = $1`, [id]))[0];
  }

  /** Oldest first; `role` and `email` (exact, case-insensitive) narrow the list. */
  list(filter: { role?: string; email?: string }, page: { after?: string; before?: string; limit: number }) {
    const params: unknown[] = [];
    let where = 'WHERE true';
    if (filter.role !== undefined) {
      params.push(filter.role);
      where += ` AND m.role = $${params.length}`;
    }
    if (filter.email !== undefined) {
      params.push(filter.email.toLowerCase());
      where += ` AND m.email = $${params.length}`;
    }
    return keysetPage<MemberRecord & Record<string, unknown>>(this.db, {
      select: COLUMNS,
      from: `FROM rm_members m ${where}`,
      params,
      order: [
        { expr: 'm.created_at', type: 'timestamptz' },
        { expr: 'm.id', type: 'uuid' },
      ],
      direction: 'asc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
  }
}
