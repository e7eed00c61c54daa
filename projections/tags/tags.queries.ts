import { DataSource } from 'typeorm';

export interface TagRecord {
  name: string;
  description: string | null;
  color: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Tags are account-wide: no environment to scope by. */
export class TagQueries {
  constructor(private readonly db: DataSource) {}

  async get(name: string): Promise<TagRecord | undefined> {
    return (await this.db.query<TagRecord[]>('SELECT * FROM rm_tags WHERE name = $1', [name]))[0];
  }

  /** The whole catalog, by name (the reference's list is not paged). */
  list(): Promise<TagRecord[]> {
    return this.db.query<TagRecord[]>('SELECT * FROM rm_tags ORDER BY name COLLATE "C" LIMIT 10000');
  }
}
