import { MemberAdded, MemberRemoved, MemberRoleChanged } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/**
 * The account's members; a removed member's row goes. A removed member is erased (ADR 0220): in
 * a rebuild its MemberAdded opens with the address erased, and no row is written for it.
 */
export const membersProjection = defineProjection({
  name: 'members',
  version: 1,
  tables: ['rm_members'],
  events: [MemberAdded, MemberRoleChanged, MemberRemoved],
  on: {
    async MemberAdded({ data: d }, tx) {
      if (typeof d.email !== 'string') return;
      await tx.query(
        `INSERT INTO rm_members (id, user_id, email, name, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (id) DO NOTHING`,
        [d.member_id, d.user_id, d.email, typeof d.name === 'string' ? d.name : null, d.role, d.added_at],
      );
    },
    async MemberRoleChanged({ data: d }, tx) {
      await tx.query('UPDATE rm_members SET role = $2, updated_at = $3 WHERE id = $1', [d.member_id, d.role, d.changed_at]);
    },
    async MemberRemoved({ data: d }, tx) {
      await tx.query('DELETE FROM rm_members WHERE id = $1', [d.member_id]);
    },
  },
});
