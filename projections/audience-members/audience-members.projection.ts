import { AudienceArchived, AudienceMembersAdded, AudienceMembersRemoved, EventOf, UserDeleted, UserMerged } from '@notify/contracts';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled =
  | EventOf<typeof AudienceMembersAdded>
  | EventOf<typeof AudienceMembersRemoved>
  | EventOf<typeof AudienceArchived>
  | EventOf<typeof UserMerged>
  | EventOf<typeof UserDeleted>;

const asJson = (members: { user_id: string; tenant: string | null }[]) => JSON.stringify(members.map((m) => [m.user_id, m.tenant ?? '']));

/**
 * Who belongs to which audience. A membership ends with its user: deleting a user removes its
 * rows; merging one moves the source's memberships to the target.
 */
export const audienceMembersProjection: Projection = {
  name: 'audience-members',
  version: 1,
  filter: { eventTypes: ['AudienceMembersAdded', 'AudienceMembersRemoved', 'AudienceArchived', 'UserMerged', 'UserDeleted'] },
  tables: ['rm_audience_members'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      const env = recorded.metadata.environment;
      switch (event.type) {
        case 'AudienceMembersAdded':
          await tx.query(
            `INSERT INTO rm_audience_members (environment, audience_key, user_id, tenant, added_at)
             SELECT $1, $2, m->>0, m->>1, $4 FROM jsonb_array_elements($3::jsonb) m
             ON CONFLICT (environment, audience_key, user_id, tenant) DO NOTHING`,
            [env, event.data.audience_key, asJson(event.data.members), event.data.added_at],
          );
          break;
        case 'AudienceMembersRemoved':
          await tx.query(
            `DELETE FROM rm_audience_members WHERE environment = $1 AND audience_key = $2
               AND jsonb_build_array(user_id, tenant) IN (SELECT value FROM jsonb_array_elements($3::jsonb))`,
            [env, event.data.audience_key, asJson(event.data.members)],
          );
          break;
        case 'AudienceArchived':
          // An archived audience keeps no members: created again, it starts empty.
          await tx.query('DELETE FROM rm_audience_members WHERE environment = $1 AND audience_key = $2', [env, event.data.audience_key]);
          break;
        case 'UserMerged':
          // Where both belonged (same audience and tenant) the target keeps its own row; the
          // source's rows left behind go with the UserDeleted that follows.
          await tx.query(
            `UPDATE rm_audience_members s SET user_id = $3
             WHERE s.environment = $1 AND s.user_id = $2
               AND NOT EXISTS (SELECT 1 FROM rm_audience_members t WHERE t.environment = s.environment AND t.audience_key = s.audience_key
                 AND t.tenant = s.tenant AND t.user_id = $3)`,
            [env, event.data.from_user_id, event.data.user_id],
          );
          break;
        case 'UserDeleted':
          await tx.query('DELETE FROM rm_audience_members WHERE environment = $1 AND user_id = $2', [env, event.data.user_id]);
          break;
      }
    }
  },
};
