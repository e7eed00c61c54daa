import { BranchCreated, BranchDeleted, BranchRebased, ResourcesCommitted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/** The branches of each environment, with when each was last committed to. */
export const branchesProjection = defineProjection({
  name: 'branches',
  version: 1,
  tables: ['rm_branches'],
  events: [BranchCreated, BranchRebased, BranchDeleted, ResourcesCommitted],
  on: {
    async BranchCreated({ data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_branches (parent_environment, slug, environment, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (parent_environment, slug) DO UPDATE SET environment = EXCLUDED.environment, created_at = EXCLUDED.created_at,
           updated_at = EXCLUDED.updated_at, last_commit_at = NULL`,
        [d.parent_environment, d.slug, d.environment, d.created_at],
      );
    },
    async BranchRebased({ data: d }, tx) {
      await tx.query('UPDATE rm_branches SET updated_at = $2 WHERE environment = $1', [d.environment, d.rebased_at]);
    },
    async BranchDeleted({ data: d }, tx) {
      await tx.query('DELETE FROM rm_branches WHERE environment = $1', [d.environment]);
    },
    async ResourcesCommitted({ environment, data }, tx) {
      // Only branch keys carry '~'; commits in environments change no row.
      if (!environment?.includes('~')) return;
      await tx.query('UPDATE rm_branches SET last_commit_at = $2, updated_at = $2 WHERE environment = $1', [
        environment,
        data.committed_at,
      ]);
    },
  },
});
