import { ChannelTypeT } from '@notify/contracts';
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

  async listUsable(environment: string): Promise<ChannelRecord[]> {
    const rows = await this.db.query<ChannelRow[]>(
      'SELECT * FROM rm_channels WHERE archived_at IS NULL AND environment_settings ? $1 ORDER BY key',
      [environment],
    );
    return rows.map((r) => toRecord(environment, r));
  }
}
