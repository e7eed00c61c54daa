import { EventOf, ObjectDeleted, ObjectSet } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled = EventOf<typeof ObjectSet> | EventOf<typeof ObjectDeleted>;

export const objectsProjection: Projection = {
  name: 'objects',
  version: 1,
  filter: { eventTypes: ['ObjectSet', 'ObjectDeleted'] },
  tables: ['rm_objects'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      const environment = recorded.metadata.environment;
      switch (event.type) {
        case 'ObjectSet': {
          const { collection, object_id, properties, set_at } = event.data;
          const [row] = await tx.query<{ properties: Record<string, unknown> }[]>(
            'SELECT properties FROM rm_objects WHERE environment = $1 AND collection = $2 AND id = $3',
            [environment, collection, object_id],
          );
          await tx.query(
            `INSERT INTO rm_objects (environment, collection, id, properties, inserted_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
             ON CONFLICT (environment, collection, id) DO UPDATE SET properties = EXCLUDED.properties, updated_at = EXCLUDED.updated_at`,
            [environment, collection, object_id, JSON.stringify(mergeProperties(row?.properties ?? {}, properties)), set_at],
          );
          break;
        }
        case 'ObjectDeleted':
          await tx.query('DELETE FROM rm_objects WHERE environment = $1 AND collection = $2 AND id = $3', [environment, event.data.collection, event.data.object_id]);
          break;
      }
    }
  },
};
