import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { MgmtPageQuery, mgmtListOf } from './mgmt';

/**
 * Assets: account-wide files (images for email templates), stored in the database and served at
 * a public URL (`/assets/{id}/{filename}`) that templates reference. The reference lists them;
 * upload, get and delete are this service's own routes (ADR 0159).
 */
export const ASSET_MAX_BYTES = 700 * 1024;

export const Asset = z
  .object({
    id: z.uuid(),
    asset_type: z.string(),
    filename: z.string().nullable(),
    mime_type: z.string(),
    url: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Asset' });
export type AssetT = z.infer<typeof Asset>;

const Filename = z
  .string()
  .min(1, 'is required')
  .max(255, 'must be at most 255 characters')
  .refine((v) => !/[/\\]/.test(v) && ![...v].some((c) => c.charCodeAt(0) < 0x20), 'must not contain slashes or control characters');
const MimeType = z
  .string()
  .max(255)
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, 'must be a MIME type such as image/png');

export const UploadAssetRequest = z.strictObject({
  filename: Filename,
  mime_type: MimeType,
  /** The file's bytes, base64 encoded. */
  content: z.base64('must be base64').min(1, 'is required'),
});

/** The content's bytes are in the asset store under `sha256` (content-addressed), not in the event. */
export const AssetUploaded = defineEvent(
  'AssetUploaded',
  1,
  z.object({
    asset_id: z.uuid(),
    filename: z.string(),
    mime_type: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    uploaded_at: z.string(),
  }),
);
export const AssetDeleted = defineEvent('AssetDeleted', 1, z.object({ asset_id: z.uuid(), deleted_at: z.string() }));
export const assetEventContracts = [AssetUploaded, AssetDeleted] as const;

const AssetPath = z.object({ id: z.uuid() });

export const listAssetsRoute = defineRoute({
  operationId: 'listAssets',
  method: 'GET',
  path: '/v1/assets',
  summary: 'List the assets of the account, newest first',
  tags: ['Assets'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  query: MgmtPageQuery,
  response: mgmtListOf(Asset).meta({ id: 'ListAssetsResponse' }),
});

export const uploadAssetRoute = defineRoute({
  operationId: 'uploadAsset',
  method: 'POST',
  path: '/v1/assets',
  summary: 'Upload an asset (base64 content); answers it with its public URL',
  tags: ['Assets'],
  auth: 'service',
  scope: 'account',
  rateTier: 3,
  body: UploadAssetRequest,
  response: Asset,
  status: 201,
});

/** The file's bytes as the body, read as they arrive, up to ASSETS_MAX_UPLOAD_BYTES (ADR 0227). */
export const streamAssetRoute = defineRoute({
  operationId: 'streamAsset',
  method: 'POST',
  path: '/v1/assets/upload',
  summary: "Upload an asset as the request body (its bytes, in the file's Content-Type); answers it with its public URL",
  tags: ['Assets'],
  auth: 'service',
  scope: 'account',
  rateTier: 3,
  query: z.strictObject({
    filename: Filename,
    /** The file's type when the Content-Type header is not it (any Content-Type is taken as the file's, JSON and text too). */
    mime_type: MimeType.optional(),
  }),
  streamBody: 'binary',
  response: Asset,
  status: 201,
});

export const getAssetRoute = defineRoute({
  operationId: 'getAsset',
  method: 'GET',
  path: '/v1/assets/{id}',
  summary: 'Get an asset',
  tags: ['Assets'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  params: AssetPath,
  response: Asset,
});

export const deleteAssetRoute = defineRoute({
  operationId: 'deleteAsset',
  method: 'DELETE',
  path: '/v1/assets/{id}',
  summary: 'Delete an asset: it leaves the list and its URL answers 404',
  tags: ['Assets'],
  auth: 'service',
  scope: 'account',
  rateTier: 3,
  params: AssetPath,
  response: null,
});

export const serveAssetRoute = defineRoute({
  operationId: 'serveAsset',
  method: 'GET',
  path: '/assets/{id}/{filename}',
  summary: "An asset's content, at the public URL templates reference",
  tags: ['Assets'],
  auth: 'none',
  params: z.object({ id: z.uuid(), filename: z.string().max(255) }),
  status: 200,
  produces: 'application/octet-stream',
  response: z.string(),
});
