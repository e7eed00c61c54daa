import { CommitPromoted, ResourcesCommitted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

export const commitsProjection = defineProjection({
  name: 'commits',
  version: 1,
  tables: ['rm_commits'],
  events: [ResourcesCommitted, CommitPromoted],
  on: {
    async ResourcesCommitted({ environment, data }, tx) {
      for (const c of data.commits) {
        await tx.query(
          `INSERT INTO rm_commits (environment, id, origin, resource_type, identifier, sha, message, author, created_at) VALUES ($1, $2, true, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (environment, id) DO NOTHING`,
          [
            environment,
            c.commit_id,
            c.resource.type,
            c.resource.identifier,
            c.sha,
            data.commit_message,
            JSON.stringify(data.author),
            data.committed_at,
          ],
        );
      }
    },
    async CommitPromoted({ environment, data: d }, tx) {
      await tx.query('UPDATE rm_commits SET promoted_at = $3 WHERE environment = $1 AND id = $2', [
        d.from_environment,
        d.commit_id,
        d.promoted_at,
      ]);
      await tx.query(
        `INSERT INTO rm_commits (environment, id, origin, resource_type, identifier, sha, message, author, created_at)
         SELECT $1, id, false, resource_type, identifier, sha, message, author, $3 FROM rm_commits WHERE environment = $2 AND id = $4
         ON CONFLICT (environment, id) DO NOTHING`,
        [environment, d.from_environment, d.promoted_at, d.commit_id],
      );
    },
  },
});
