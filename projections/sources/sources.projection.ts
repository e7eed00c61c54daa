import { SourceActionsRan, SourceEventReceived, SourceUpserted, UserErased } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';
import { erasedOr } from '../erased';

/**
 * Sources per environment (ADR 0195), and the log of the events they received with what their
 * actions did. A log's payload and actions are its subject's personal data: erasing the user drops
 * their logs, and a rebuild skips the events whose payload reads as erased (ADR 0194).
 */
export const sourcesProjection = defineProjection({
  name: 'sources',
  version: 2,
  tables: ['rm_sources', 'rm_source_logs'],
  events: [SourceUpserted, SourceEventReceived, SourceActionsRan, UserErased],
  on: {
    async SourceUpserted({ environment, data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_sources (environment, key, name, custom_image_url, settings, mappings, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (environment, key) DO UPDATE SET name = EXCLUDED.name, custom_image_url = EXCLUDED.custom_image_url,
           settings = EXCLUDED.settings, mappings = EXCLUDED.mappings, updated_at = EXCLUDED.updated_at`,
        [environment, d.key, d.name, d.custom_image_url, JSON.stringify(d.settings), JSON.stringify(d.mappings), d.upserted_at],
      );
    },
    async SourceEventReceived({ environment, data: d }, tx) {
      const payload = erasedOr<typeof d.payload | null>(d.payload, null);
      const actions = erasedOr<typeof d.actions | null>(d.actions, null);
      if (payload === null || actions === null) return;
      await tx.query(
        `INSERT INTO rm_source_logs (environment, id, source_key, event, payload, actions, inserted_at, subject)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [environment, d.log_id, d.source_key, d.event, JSON.stringify(payload), JSON.stringify(actions), d.received_at, d.subject],
      );
    },
    async SourceActionsRan({ environment, data: d }, tx) {
      await tx.query(`UPDATE rm_source_logs SET results = $3 WHERE environment = $1 AND id = $2`, [
        environment,
        d.log_id,
        JSON.stringify(d.results),
      ]);
    },
    async UserErased({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_source_logs WHERE environment = $1 AND subject = $2', [environment, data.user_id]);
    },
  },
});
