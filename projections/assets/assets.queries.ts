import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface AssetRecord {
  id: string;
  filename: string;
  mime_type: string;
  sha256: string;
  size: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'a.id::text AS id, a.filename, a.mime_type, a.sha256, a.size, a.created_at, a.updated_at';

export class AssetQueries {
  constructor(private readonly db: DataSource) {}

  async get(id: string): Promise<AssetRecord | undefined> {
    return (await this.db.query<AssetRecord[]>(`SELECT ${COLUMNS} FROM rm_assets a WHERE a.id = $1`, [id]))[0];
  }

  list(page: { after?: string; before?: string; limit: number }) {
    return keysetPage<AssetRecord & Record<string, unknown>>(this.db, {
      select: COLUMNS,
      from: 'FROM rm_assets a',
      params: [],
      order: [
        { expr: 'a.created_at', type: 'timestamptz' },
        { expr: 'a.id', type: 'uuid' },
      ],
      direction: 'desc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
  }
}

/** Asset contents in the database (`asset_blobs`), the default store (ADR 0159). */
export class DatabaseAssetBlobs {
  constructor(private readonly db: DataSource) {}

  /** Keeps a file's bytes under their sha256 (the same bytes are kept once). */
  async storeBlob(sha256: string, content: Buffer): Promise<void> {
    await this.db.query('INSERT INTO asset_blobs (sha256, content, size) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [
      sha256,
      content,
      content.length,
    ]);
  }

  async readBlob(sha256: string): Promise<Buffer | undefined> {
    const rows = await this.db.query<{ content: Buffer }[]>('SELECT content FROM asset_blobs WHERE sha256 = $1', [sha256]);
    return rows[0]?.content;
  }
}
