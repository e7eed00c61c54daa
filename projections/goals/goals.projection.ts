import { GoalArchived, GoalUpserted, RunConverted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/** Goals per environment and the runs converted to them (ADR 0196). */
export const goalsProjection = defineProjection({
  name: 'goals',
  version: 1,
  tables: ['rm_goals', 'rm_goal_conversions'],
  events: [GoalUpserted, GoalArchived, RunConverted],
  on: {
    async GoalUpserted({ environment, data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_goals (environment, key, name, condition, sha, archived, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, false, $6, $6)
         ON CONFLICT (environment, key) DO UPDATE SET name = EXCLUDED.name, condition = EXCLUDED.condition, sha = EXCLUDED.sha,
           archived = false, updated_at = EXCLUDED.updated_at,
           created_at = CASE WHEN rm_goals.archived THEN EXCLUDED.created_at ELSE rm_goals.created_at END`,
        [environment, d.key, d.name, JSON.stringify(d.condition), d.sha, d.upserted_at],
      );
    },
    async GoalArchived({ environment, data: d }, tx) {
      await tx.query('UPDATE rm_goals SET archived = true, updated_at = $3 WHERE environment = $1 AND key = $2', [
        environment,
        d.key,
        d.archived_at,
      ]);
    },
    async RunConverted({ environment, data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_goal_conversions (environment, goal_key, run_id, workflow_run_id, workflow_key, recipient_id, converted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [environment, d.goal_key, d.run_id, d.workflow_run_id, d.workflow_key, d.recipient.id, d.converted_at],
      );
    },
  },
});
