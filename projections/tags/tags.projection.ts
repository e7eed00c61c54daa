import { TagDeleted, TagUpserted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/** The account's tag catalog; a deleted tag's row goes, and creating it again starts a new created_at. */
export const tagsProjection = defineProjection({
  name: 'tags',
  version: 1,
  tables: ['rm_tags'],
  events: [TagUpserted, TagDeleted],
  on: {
    async TagUpserted({ data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_tags (name, description, color, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (name) DO UPDATE SET description = EXCLUDED.description, color = EXCLUDED.color, updated_at = EXCLUDED.updated_at`,
        [d.name, d.description, d.color, d.upserted_at],
      );
    },
    async TagDeleted({ data }, tx) {
      await tx.query('DELETE FROM rm_tags WHERE name = $1', [data.name]);
    },
  },
});
