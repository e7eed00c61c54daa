import { z } from 'zod';
import { ApiKeyKind } from '../events/environment.events';
import { defineRoute } from '../http/route';
import { QueryFlag } from './mgmt';

/**
 * API keys of an environment, managed with a service token (ADR 0152). The reference has only
 * `POST /v1/api_keys/exchange`; these sit beside it under `/v1/api_keys`, the environment in
 * `?environment=` as on every management route. A secret is answered once, on create and rotate.
 */

const EnvironmentOnly = z.object({ environment: z.string().min(1).max(63) });
const KeyPath = z.strictObject({ key_id: z.uuid() });

export const ApiKey = z
  .object({
    id: z.uuid(),
    environment: z.string(),
    kind: ApiKeyKind,
    name: z.string().nullable(),
    /** The secret's last characters, to recognise it. */
    hint: z.string(),
    /** `expiring`: rotated, still accepted until `expires_at`; `expired` and `revoked` keys answer 401. */
    status: z.enum(['active', 'expiring', 'expired', 'revoked']),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    /** The key a rotation issued in this one's place. */
    replaced_by: z.uuid().nullable(),
    /** When the key last authenticated a request (recorded at most once a minute). */
    last_used_at: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyT = z.infer<typeof ApiKey>;

export const CreatedApiKey = ApiKey.extend({
  /** The secret, shown this once: only its hash is stored. */
  secret: z.string(),
}).meta({ id: 'CreatedApiKey' });
export type CreatedApiKeyT = z.infer<typeof CreatedApiKey>;

export const RotatedApiKey = CreatedApiKey.extend({ rotated: ApiKey }).meta({ id: 'RotatedApiKey' });
export type RotatedApiKeyT = z.infer<typeof RotatedApiKey>;

export const listApiKeysRoute = defineRoute({
  operationId: 'listApiKeys',
  method: 'GET',
  path: '/v1/api_keys',
  summary: "List an environment's API keys, oldest first, with their status and last use (never their secrets)",
  tags: ['API keys'],
  auth: 'service',
  rateTier: 3,
  query: EnvironmentOnly.extend({ active: QueryFlag.optional() }),
  response: z.object({ entries: z.array(ApiKey) }).meta({ id: 'ListApiKeysResponse' }),
});

export const getApiKeyRoute = defineRoute({
  operationId: 'getApiKey',
  method: 'GET',
  path: '/v1/api_keys/{key_id}',
  summary: 'One API key of the environment',
  tags: ['API keys'],
  auth: 'service',
  rateTier: 3,
  params: KeyPath,
  query: EnvironmentOnly,
  response: ApiKey,
});

export const createApiKeyRoute = defineRoute({
  operationId: 'createApiKey',
  method: 'POST',
  path: '/v1/api_keys',
  summary: 'Issue an API key; its secret is in this response only',
  tags: ['API keys'],
  auth: 'service',
  access: 'admin',
  rateTier: 2,
  query: EnvironmentOnly,
  body: z.strictObject({ kind: ApiKeyKind, name: z.string().trim().min(1).max(255).optional() }).meta({ id: 'CreateApiKeyRequest' }),
  response: CreatedApiKey,
  status: 201,
});

/** Longest overlap a rotation may leave the old secret working: 30 days. */
export const MAX_ROTATION_OVERLAP_SECONDS = 30 * 24 * 3600;

export const rotateApiKeyRoute = defineRoute({
  operationId: 'rotateApiKey',
  method: 'POST',
  path: '/v1/api_keys/{key_id}/rotate',
  summary: 'Issue a new secret for a key; the old one keeps working for overlap_seconds (default 1 day, 0 stops it at once)',
  tags: ['API keys'],
  auth: 'service',
  access: 'admin',
  rateTier: 2,
  params: KeyPath,
  query: EnvironmentOnly,
  body: z
    .strictObject({ overlap_seconds: z.number().int().min(0).max(MAX_ROTATION_OVERLAP_SECONDS).default(86_400) })
    .meta({ id: 'RotateApiKeyRequest' }),
  response: RotatedApiKey,
  status: 201,
});

export const revokeApiKeyRoute = defineRoute({
  operationId: 'revokeApiKey',
  method: 'DELETE',
  path: '/v1/api_keys/{key_id}',
  summary: 'Revoke an API key: every api process answers 401 to it from the moment this call returns',
  tags: ['API keys'],
  auth: 'service',
  access: 'admin',
  rateTier: 2,
  params: KeyPath,
  query: EnvironmentOnly,
  response: ApiKey,
});
