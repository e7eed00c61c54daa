import { AudienceArchived, AudienceMembersAdded, AudienceMembersRemoved, UserDeleted, UserMerged } from '@notify/contracts';
import { defineProjection, EntityManager } from '@notify/projection-runtime';
import { announceGuideAudience, recentForGuides } from '../config-resources/guide-notifications';

const asJson = (members: { user_id: string; tenant: string | null }[]) => JSON.stringify(members.map((m) => [m.user_id, m.tenant ?? '']));

/** Members added or removed: their open guide sockets evaluate targeting again (ADR 0165). */
async function announceMembers(
  tx: EntityManager,
  event: { environment: string; createdAt: Date; data: { members: { user_id: string }[] } },
): Promise<void> {
  if (recentForGuides([event]).length)
    await announceGuideAudience(
      tx,
      event.environment,
      event.data.members.map((m) => m.user_id),
    );
}

/**
 * Who belongs to which audience. A membership ends with its user: deleting a user removes its
 * rows; merging one moves the source's memberships to the target.
 */
export const audienceMembersProjection = defineProjection({
  name: 'audience-members',
  version: 1,
  tables: ['rm_audience_members'],
  events: [AudienceMembersAdded, AudienceMembersRemoved, AudienceArchived, UserMerged, UserDeleted],
  on: {
    async AudienceMembersAdded(event, tx) {
      const { environment, data } = event;
      await tx.query(
        `INSERT INTO rm_audience_members (environment, audience_key, user_id, tenant, added_at)
         SELECT $1, $2, m->>0, m->>1, $4 FROM jsonb_array_elements($3::jsonb) m
         ON CONFLICT (environment, audience_key, user_id, tenant) DO NOTHING`,
        [environment, data.audience_key, asJson(data.members), data.added_at],
      );
      await announceMembers(tx, event);
    },
    async AudienceMembersRemoved(event, tx) {
      const { environment, data } = event;
      await tx.query(
        `DELETE FROM rm_audience_members WHERE environment = $1 AND audience_key = $2
           AND jsonb_build_array(user_id, tenant) IN (SELECT value FROM jsonb_array_elements($3::jsonb))`,
        [environment, data.audience_key, asJson(data.members)],
      );
      await announceMembers(tx, event);
    },
    async AudienceArchived({ environment, data }, tx) {
      // An archived audience keeps no members: created again, it starts empty.
      await tx.query('DELETE FROM rm_audience_members WHERE environment = $1 AND audience_key = $2', [environment, data.audience_key]);
    },
    async UserMerged({ environment, data }, tx) {
      // Where both belonged (same audience and tenant) the target keeps its own row; the
      // source's rows left behind go with the UserDeleted that follows.
      await tx.query(
        `UPDATE rm_audience_members s SET user_id = $3
         WHERE s.environment = $1 AND s.user_id = $2
           AND NOT EXISTS (SELECT 1 FROM rm_audience_members t WHERE t.environment = s.environment AND t.audience_key = s.audience_key
             AND t.tenant = s.tenant AND t.user_id = $3)`,
        [environment, data.from_user_id, data.user_id],
      );
    },
    async UserDeleted({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_audience_members WHERE environment = $1 AND user_id = $2', [environment, data.user_id]);
    },
  },
});
