import { DataSource } from 'typeorm';
import { normaliseProviderMessageId } from './message-receipts.projection';

export class MessageProviderIdQueries {
  constructor(private readonly db: DataSource) {}

  /** The message the provider knows by this id, in this environment. */
  async messageId(environment: string, providerMessageId: string): Promise<string | undefined> {
    const rows = await this.db.query<{ message_id: string }[]>(
      'SELECT message_id FROM rm_message_provider_ids WHERE environment = $1 AND provider_message_id = $2',
      [environment, normaliseProviderMessageId(providerMessageId)],
    );
    return rows[0]?.message_id;
  }
}
