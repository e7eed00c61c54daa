import { RecipientRefT } from '@notify/contracts';
import { DataSource } from 'typeorm';
import { recipientColumns } from '../recipient-columns';

export interface ChannelDataRecord {
  channelId: string;
  channelType: string;
  provider: string;
  data: Record<string, unknown>;
}

/** Every query is scoped by the environment it is given. */
export class ChannelDataQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, recipient: RecipientRefT, channelId: string): Promise<ChannelDataRecord | undefined> {
    const rows = await this.db.query<{ channel_id: string; channel_type: string; provider: string; data: Record<string, unknown> }[]>(
      `SELECT channel_id, channel_type, provider, data FROM rm_channel_data
       WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4 AND channel_id = $5`,
      [environment, ...recipientColumns(recipient), channelId],
    );
    const row = rows[0];
    return row && { channelId: row.channel_id, channelType: row.channel_type, provider: row.provider, data: row.data };
  }
}
