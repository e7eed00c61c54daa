import { AudienceUpserted, CommitPromoted, UserDeleted, UserIdentified } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { defineProjection } from '@notify/projection-runtime';
import { defineAudience, reevaluateUser, removeUser } from '../audience-members/dynamic-membership';

type AudienceContent = Parameters<typeof defineAudience>[3];

/**
 * Users, and their membership of dynamic audiences: those follow the user's properties, so they
 * are kept in the same transaction as the user's row (ADR 0138).
 */
export const usersProjection = defineProjection({
  name: 'users',
  version: 2,
  tables: ['rm_users', 'rm_dynamic_audiences', 'rm_dynamic_audience_members'],
  events: [UserIdentified, UserDeleted, AudienceUpserted, CommitPromoted],
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
      await reevaluateUser(tx, environment, data.user_id, data.identified_at);
    },
    async UserDeleted({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_users WHERE environment = $1 AND id = $2', [environment, data.user_id]);
      await removeUser(tx, environment, data.user_id);
    },
    async AudienceUpserted({ environment, data }, tx) {
      await defineAudience(tx, environment, data.key, data.content as AudienceContent, data.upserted_at);
    },
    async CommitPromoted({ environment, data }, tx) {
      if (data.resource.type === 'audience')
        await defineAudience(
          tx,
          environment,
          data.resource.identifier,
          data.content as Parameters<typeof defineAudience>[3],
          data.promoted_at,
        );
    },
  },
});
