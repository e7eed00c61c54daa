import { ObjectDeleted, ObjectSet } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { defineProjection } from '@notify/projection-runtime';

export const objectsProjection = defineProjection({
  name: 'objects',
  version: 1,
  tables: ['rm_objects'],
  events: [ObjectSet, ObjectDeleted],
  on: {
    async ObjectSet({ environment, data }, tx) {
      const { collection, object_id, properties, set_at } = data;
      const [row] = await tx.query<{ properties: Record<string, unknown> }[]>(
        'SELECT properties FROM rm_objects WHERE environment = $1 AND collection = $2 AND id = $3',
        [environment, collection, object_id],
      );
      await tx.query(
        `INSERT INTO rm_objects (environment, collection, id, properties, inserted_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (environment, collection, id) DO UPDATE SET properties = EXCLUDED.properties, updated_at = EXCLUDED.updated_at`,
        [environment, collection, object_id, JSON.stringify(mergeProperties(row?.properties ?? {}, properties)), set_at],
      );
    },
    async ObjectDeleted({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_objects WHERE environment = $1 AND collection = $2 AND id = $3', [
        environment,
        data.collection,
        data.object_id,
      ]);
    },
  },
});
