import { ItemSchemaUpserted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/** Item schemas per environment; users and tenants are stored with item_id '' (objects with their collection). */
export const itemSchemasProjection = defineProjection({
  name: 'item-schemas',
  version: 1,
  tables: ['rm_item_schemas'],
  events: [ItemSchemaUpserted],
  on: {
    async ItemSchemaUpserted({ data: d, environment }, tx) {
      await tx.query(
        `INSERT INTO rm_item_schemas (environment, item_type, item_id, properties, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (environment, item_type, item_id) DO UPDATE SET properties = EXCLUDED.properties, updated_at = EXCLUDED.updated_at`,
        [environment, d.item_type, d.item_id ?? '', JSON.stringify(d.properties), d.upserted_at],
      );
    },
  },
});
