import { ChannelTypeT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface ChannelRecord {
  id: string;
  key: string;
  name: string;
  type: ChannelTypeT;
  provider: string;
  description: string | null;
  /** This environment's settings (provider secrets included: never return them as they are). */
  settings: { channel_settings: Record<string, unknown>; provider_settings: Record<string, unknown>; is_sandbox: boolean } | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ChannelRow {
  id: string;
  key: string;
  name: string;
  type: ChannelTypeT;
  provider: string;
  description: string | null;
  environment_settings: Record<string, ChannelRecord['settings']>;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (environment: string, row: ChannelRow): ChannelRecord => ({
  id: row.id,
  key: row.key,
  name: row.name,
  type: row.type,
  provider: row.provider,
  description: row.description,
  settings: row.environment_settings[environment] ?? null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * Channels are account-wide; a channel is usable in an environment when it is not archived and
 * has settings for that environment.
 */
export class ChannelQueries {
  constructor(private readonly db: DataSource) {}

  async findUsable(environment: string, idOrKey: { id?: string; key?: string }): Promise<ChannelRecord | undefined> {
    const [column, value] = idOrKey.id ? ['id::text', idOrKey.id] : ['key', idOrKey.key];
    const rows = await this.db.query<ChannelRow[]>(
      `SELECT * FROM rm_channels WHERE ${column} = $1 AND archived_at IS NULL AND environment_settings ? $2`,
      [value, environment],
    );
    return rows[0] && toRecord(environment, rows[0]);
  }

  /** Whether a channel of this key exists (not archived), whichever environments it has settings in. */
  async exists(key: string): Promise<boolean> {
    const rows = await this.db.query('SELECT 1 FROM rm_channels WHERE key = $1 AND archived_at IS NULL', [key]);
    return rows.length > 0;
  }

  async listUsable(environment: string): Promise<ChannelRecord[]> {
    const rows = await this.db.query<ChannelRow[]>(
      'SELECT * FROM rm_channels WHERE archived_at IS NULL AND environment_settings ? $1 ORDER BY key',
      [environment],
    );
    return rows.map((r) => toRecord(environment, r));
  }
}

export interface ChannelAdminRow {
  id: string;
  key: string;
  name: string;
  type: ChannelTypeT;
  provider: string;
  description: string | null;
  environment_settings: Record<
    string,
    { channel_settings: Record<string, unknown>; provider_settings: Record<string, unknown>; is_sandbox: boolean }
  >;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

/**
 * The management API's view: a channel with its settings in every environment. Channels are
 * account-wide, so these reads take no environment.
 */
export class ChannelAdminQueries {
  constructor(private readonly db: DataSource) {}

  async get(key: string): Promise<ChannelAdminRow | undefined> {
    const rows = await this.db.query<ChannelAdminRow[]>('SELECT * FROM rm_channels WHERE key = $1', [key]);
    return rows[0];
  }

  async byKeys(keys: string[]): Promise<ChannelAdminRow[]> {
    return this.db.query<ChannelAdminRow[]>('SELECT * FROM rm_channels WHERE key = ANY($1)', [keys]);
  }

  async list(page: { after?: string; before?: string; limit: number }, filter: { id?: string } = {}) {
    const { rows, pageInfo } = await keysetPage<ChannelAdminRow & Record<string, unknown>>(this.db, {
      select: 'c.*',
      from: 'FROM rm_channels c WHERE c.archived_at IS NULL AND ($1::uuid IS NULL OR c.id = $1::uuid)',
      params: [filter.id ?? null],
      order: [{ expr: 'c.key', type: 'text' }],
      direction: 'asc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return {
      entries: rows as ChannelAdminRow[],
      page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size },
    };
  }
}
