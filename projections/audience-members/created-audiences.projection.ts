import { AudienceArchived, AudienceCreated } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/**
 * The static audiences that members calls created (create_audience), until archived. An
 * audience the management API defines has its own row in the configuration read model, which
 * the listings prefer (ADR 0270).
 */
export const createdAudiencesProjection = defineProjection({
  name: 'created-audiences',
  version: 1,
  tables: ['rm_created_audiences'],
  events: [AudienceCreated, AudienceArchived],
  on: {
    async AudienceCreated({ environment, data }, tx) {
      await tx.query(
        `INSERT INTO rm_created_audiences (environment, audience_key, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (environment, audience_key) DO UPDATE SET created_at = EXCLUDED.created_at`,
        [environment, data.audience_key, data.created_at],
      );
    },
    async AudienceArchived({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_created_audiences WHERE environment = $1 AND audience_key = $2', [environment, data.audience_key]);
    },
  },
});
