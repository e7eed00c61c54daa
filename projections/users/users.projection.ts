import { EventOf, UserDeleted, UserIdentified } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled = EventOf<typeof UserIdentified> | EventOf<typeof UserDeleted>;

export const usersProjection: Projection = {
  name: 'users',
  version: 1,
  filter: { eventTypes: ['UserIdentified', 'UserDeleted'] },
  tables: ['rm_users'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      const environment = recorded.metadata.environment;
      switch (event.type) {
        case 'UserIdentified': {
          const [row] = await tx.query<{ properties: Record<string, unknown> }[]>(
            'SELECT properties FROM rm_users WHERE environment = $1 AND id = $2',
            [environment, event.data.user_id],
          );
          const properties = mergeProperties(row?.properties ?? {}, event.data.properties);
          await tx.query(
            `INSERT INTO rm_users (environment, id, properties, inserted_at, updated_at) VALUES ($1, $2, $3, $4, $4)
             ON CONFLICT (environment, id) DO UPDATE SET properties = EXCLUDED.properties, updated_at = EXCLUDED.updated_at`,
            [environment, event.data.user_id, JSON.stringify(properties), event.data.identified_at],
          );
          break;
        }
        case 'UserDeleted':
          await tx.query('DELETE FROM rm_users WHERE environment = $1 AND id = $2', [environment, event.data.user_id]);
          break;
      }
    }
  },
};
