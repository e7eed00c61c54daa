import { AssetDeleted, AssetUploaded } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/** The account's assets; a deleted asset's row goes. */
export const assetsProjection = defineProjection({
  name: 'assets',
  version: 1,
  tables: ['rm_assets'],
  events: [AssetUploaded, AssetDeleted],
  on: {
    async AssetUploaded({ data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_assets (id, filename, mime_type, sha256, size, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (id) DO NOTHING`,
        [d.asset_id, d.filename, d.mime_type, d.sha256, d.size, d.uploaded_at],
      );
    },
    async AssetDeleted({ data }, tx) {
      await tx.query('DELETE FROM rm_assets WHERE id = $1', [data.asset_id]);
    },
  },
});
