import { PageInfoT, UserT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface UserRow extends Record<string, unknown> {
  id: string;
  properties: Record<string, unknown>;
  inserted_at: Date;
  updated_at: Date;
}

export function toUser(row: UserRow): UserT {
  const { created_at, ...rest } = row.properties as { created_at?: string | null };
  return { __typename: 'User', id: row.id, ...rest, created_at: created_at ?? null, updated_at: row.updated_at.toISOString() };
}

/** Every query is scoped by the environment it is given; none can cross environments. */
export class UserQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, id: string): Promise<UserT | undefined> {
    const rows = await this.db.query<UserRow[]>(
      'SELECT id, properties, inserted_at, updated_at FROM rm_users WHERE environment = $1 AND id = $2',
      [environment, id],
    );
    return rows[0] && toUser(rows[0]);
  }

  /** Many users at once, by id (absent ids are absent from the map). */
  async getMany(environment: string, ids: readonly string[]): Promise<Map<string, UserT>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<UserRow[]>(
      'SELECT id, properties, inserted_at, updated_at FROM rm_users WHERE environment = $1 AND id = ANY($2)',
      [environment, ids],
    );
    return new Map(rows.map((r) => [r.id, toUser(r)]));
  }

  async list(
    environment: string,
    page: { after?: string; before?: string; page_size: number },
  ): Promise<{ entries: UserT[]; page_info: PageInfoT }> {
    const { rows, pageInfo } = await keysetPage<UserRow>(this.db, {
      select: 'u.id, u.properties, u.inserted_at, u.updated_at',
      from: 'FROM rm_users u WHERE u.environment = $1',
      params: [environment],
      order: [
        { expr: 'u.inserted_at', type: 'timestamptz' },
        { expr: 'u.id', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
    });
    return { entries: rows.map(toUser), page_info: pageInfo };
  }
}
