import { UserDeleted, UserIdentified } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { defineProjection } from '@notify/projection-runtime';

export const usersProjection = defineProjection({
  name: 'users',
  version: 1,
  tables: ['rm_users'],
  events: [UserIdentified, UserDeleted],
  on: {
    async UserIdentified({ environment, data }, tx) {
      const [row] = await tx.query<{ properties: Record<string, unknown> }[]>(
        'SELECT properties FROM rm_users WHERE environment = $1 AND id = $2',
        [environment, data.user_id],
      );
      const properties = mergeProperties(row?.properties ?? {}, data.properties);
      await tx.query(
        `INSERT INTO rm_users (environment, id, properties, inserted_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (environment, id) DO UPDATE SET properties = EXCLUDED.properties, updated_at = EXCLUDED.updated_at`,
        [environment, data.user_id, JSON.stringify(properties), data.identified_at],
      );
    },
    async UserDeleted({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_users WHERE environment = $1 AND id = $2', [environment, data.user_id]);
    },
  },
});
