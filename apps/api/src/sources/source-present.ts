import { sourceIngestKey } from '@notify/application';
import { SourceT } from '@notify/contracts';
import { SourceRecord } from '@notify/projections/sources';

/** A source's settings in one environment as answered: its ingest endpoint (absolute) and key added. */
export function environmentSettings(record: SourceRecord, publicUrl: string, secret: Buffer) {
  return {
    settings: {
      ...record.settings,
      endpoint: `${publicUrl}/v1/ingest/${encodeURIComponent(record.environment)}/${record.key}`,
      ingest_key: sourceIngestKey(secret, record.environment, record.key),
    },
    mappings: record.mappings,
    updated_at: record.updatedAt.toISOString(),
  };
}

/** Rows of one source (one per environment) as the reference's Source: the newest row names it. */
export function presentSource(rows: SourceRecord[], publicUrl: string, secret: Buffer): SourceT {
  const newest = rows.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a));
  return {
    key: newest.key,
    name: newest.name,
    custom_image_url: newest.customImageUrl,
    environment_settings: Object.fromEntries(rows.map((r) => [r.environment, environmentSettings(r, publicUrl, secret)])),
    created_at: new Date(Math.min(...rows.map((r) => r.createdAt.getTime()))).toISOString(),
    updated_at: newest.updatedAt.toISOString(),
  };
}
