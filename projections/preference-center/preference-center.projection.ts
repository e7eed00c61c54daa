import { PreferenceCategoryArchived, PreferenceCategoryCreated, PreferenceCenterConfigured } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

export const preferenceCenterProjection = defineProjection({
  name: 'preference-center',
  version: 1,
  tables: ['rm_preference_categories', 'rm_preference_centers'],
  events: [PreferenceCategoryCreated, PreferenceCategoryArchived, PreferenceCenterConfigured],
  on: {
    async PreferenceCategoryCreated({ data: d }, tx) {
      // A category archived and created again is a new one: its dates start over.
      await tx.query(
        `INSERT INTO rm_preference_categories (name, created_at, updated_at, archived_at) VALUES ($1, $2, $2, NULL)
         ON CONFLICT (name) DO UPDATE SET created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, archived_at = NULL`,
        [d.name, d.created_at],
      );
    },
    async PreferenceCategoryArchived({ data: d }, tx) {
      await tx.query(`UPDATE rm_preference_categories SET archived_at = $2, updated_at = $2 WHERE name = $1`, [d.name, d.archived_at]);
    },
    async PreferenceCenterConfigured({ data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_preference_centers (environment, config, enabled, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (environment) DO UPDATE SET config = EXCLUDED.config, enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`,
        [d.environment, JSON.stringify(d.config), d.enabled, d.configured_at],
      );
    },
  },
});
