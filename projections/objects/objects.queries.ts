import { ObjectT, PageInfoT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface ObjectRow extends Record<string, unknown> {
  collection: string;
  id: string;
  properties: Record<string, unknown>;
  inserted_at: Date;
  updated_at: Date;
}

export function toObject(row: ObjectRow): ObjectT {
  const { created_at, ...properties } = row.properties as { created_at?: string | null };
  return {
    __typename: 'Object',
    id: row.id,
    collection: row.collection,
    properties,
    created_at: created_at ?? null,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** Every query is scoped by the environment it is given. */
export class ObjectQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, collection: string, id: string): Promise<ObjectT | undefined> {
    const rows = await this.db.query<ObjectRow[]>(
      'SELECT collection, id, properties, inserted_at, updated_at FROM rm_objects WHERE environment = $1 AND collection = $2 AND id = $3',
      [environment, collection, id],
    );
    return rows[0] && toObject(rows[0]);
  }

  async list(
    environment: string,
    collection: string,
    page: { after?: string; before?: string; page_size: number },
  ): Promise<{ entries: ObjectT[]; page_info: PageInfoT }> {
    const { rows, pageInfo } = await keysetPage<ObjectRow>(this.db, {
      select: 'o.collection, o.id, o.properties, o.inserted_at, o.updated_at',
      from: 'FROM rm_objects o WHERE o.environment = $1 AND o.collection = $2',
      params: [environment, collection],
      order: [
        { expr: 'o.inserted_at', type: 'timestamptz' },
        { expr: 'o.id', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
    });
    return { entries: rows.map(toObject), page_info: pageInfo };
  }
}
