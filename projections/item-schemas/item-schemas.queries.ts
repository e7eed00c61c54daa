import type { ItemTypeT, StoredItemSchemaPropertyT } from '@notify/contracts';
import { DataSource } from 'typeorm';

export interface ItemSchemaRecord {
  environment: string;
  item_type: ItemTypeT;
  /** '' for users and tenants. */
  item_id: string;
  properties: StoredItemSchemaPropertyT[];
  created_at: Date;
  updated_at: Date;
}

export class ItemSchemaQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, itemType: ItemTypeT, itemId: string | null): Promise<ItemSchemaRecord | undefined> {
    const rows = await this.db.query<ItemSchemaRecord[]>(
      'SELECT * FROM rm_item_schemas WHERE environment = $1 AND item_type = $2 AND item_id = $3',
      [environment, itemType, itemId ?? ''],
    );
    return rows[0];
  }

  /** The declared properties (the port the recipient use cases check writes against). */
  async propertiesOf(environment: string, itemType: ItemTypeT, itemId: string | null): Promise<StoredItemSchemaPropertyT[] | undefined> {
    return (await this.get(environment, itemType, itemId))?.properties;
  }

  /** Every schema of the environment: users, tenants, then object collections by name (a handful per environment). */
  list(environment: string, itemType?: ItemTypeT): Promise<ItemSchemaRecord[]> {
    return this.db.query<ItemSchemaRecord[]>(
      `SELECT * FROM rm_item_schemas WHERE environment = $1 AND ($2::text IS NULL OR item_type = $2)
       ORDER BY array_position(ARRAY['user','tenant','object'], item_type), item_id COLLATE "C" LIMIT 1000`,
      [environment, itemType ?? null],
    );
  }
}
