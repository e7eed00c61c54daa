import { SourceActionsRan, SourceEventReceived, SourceUpserted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/** Sources per environment (ADR 0195), and the log of the events they received with what their actions did. */
export const sourcesProjection = defineProjection({
  name: 'sources',
  version: 1,
  tables: ['rm_sources', 'rm_source_logs'],
  events: [SourceUpserted, SourceEventReceived, SourceActionsRan],
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
      await tx.query(
        `INSERT INTO rm_source_logs (environment, id, source_key, event, payload, actions, inserted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [environment, d.log_id, d.source_key, d.event, JSON.stringify(d.payload), JSON.stringify(d.actions), d.received_at],
      );
    },
    async SourceActionsRan({ environment, data: d }, tx) {
      await tx.query(`UPDATE rm_source_logs SET results = $3 WHERE environment = $1 AND id = $2`, [
        environment,
        d.log_id,
        JSON.stringify(d.results),
      ]);
    },
  },
});
