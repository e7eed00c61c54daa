import { ChannelTypeT, MgmtPageInfoT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface ChannelGroupRecord {
  key: string;
  name: string;
  channel_type: ChannelTypeT;
  operator: 'any' | 'all';
  visible_in: ('workflow' | 'broadcast')[];
  channel_rules: {
    index: number;
    rule_type: 'if' | 'unless' | 'always';
    channel_key: string;
    variable?: string;
    operator?: string;
    argument?: string;
  }[];
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

/** Channel groups are account-wide, like the channels they group. */
export class ChannelGroupQueries {
  constructor(private readonly db: DataSource) {}

  async get(key: string): Promise<ChannelGroupRecord | undefined> {
    const rows = await this.db.query<ChannelGroupRecord[]>('SELECT * FROM rm_channel_groups WHERE key = $1 AND archived_at IS NULL', [key]);
    return rows[0];
  }

  async list(page: {
    after?: string;
    before?: string;
    limit: number;
  }): Promise<{ entries: ChannelGroupRecord[]; page_info: MgmtPageInfoT }> {
    const { rows, pageInfo } = await keysetPage<ChannelGroupRecord & Record<string, unknown>>(this.db, {
      select: 'g.*',
      from: 'FROM rm_channel_groups g WHERE g.archived_at IS NULL',
      params: [],
      order: [{ expr: 'g.key', type: 'text' }],
      direction: 'asc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return { entries: rows, page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size } };
  }
}
