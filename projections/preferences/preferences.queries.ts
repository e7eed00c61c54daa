import { PreferenceSetDataT, PreferenceSetT, RecipientRefT } from '@notify/contracts';
import { DataSource } from 'typeorm';
import { recipientColumns } from '../recipient-columns';

interface Row {
  recipient_id: string;
  set_id: string;
  preferences: PreferenceSetDataT;
}

const toSet = (row: Row): PreferenceSetT => ({ id: row.set_id, ...row.preferences });

/** Every query is scoped by the environment it is given. */
export class PreferenceQueries {
  constructor(private readonly db: DataSource) {}

  async list(environment: string, recipient: RecipientRefT): Promise<PreferenceSetT[]> {
    const rows = await this.db.query<Row[]>(
      `SELECT recipient_id, set_id, preferences FROM rm_preference_sets
       WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4 ORDER BY set_id`,
      [environment, ...recipientColumns(recipient)],
    );
    return rows.map(toSet);
  }

  async get(environment: string, recipient: RecipientRefT, setId: string): Promise<PreferenceSetDataT | undefined> {
    const rows = await this.db.query<Row[]>(
      `SELECT recipient_id, set_id, preferences FROM rm_preference_sets
       WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4 AND set_id = $5`,
      [environment, ...recipientColumns(recipient), setId],
    );
    return rows[0]?.preferences;
  }

  /** Preference sets of many recipients of one kind at once (list endpoints with include=preferences). */
  async forRecipients(
    environment: string,
    type: 'user' | 'object',
    collection: string,
    ids: readonly string[],
  ): Promise<Map<string, PreferenceSetT[]>> {
    const out = new Map<string, PreferenceSetT[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = await this.db.query<Row[]>(
      `SELECT recipient_id, set_id, preferences FROM rm_preference_sets
       WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = ANY($4) ORDER BY set_id`,
      [environment, type, collection, ids],
    );
    for (const row of rows) out.get(row.recipient_id)?.push(toSet(row));
    return out;
  }
}
