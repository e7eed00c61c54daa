import { z } from 'zod';
import { EnvironmentSlug } from '../events/environment.events';
import { defineRoute } from '../http/route';

const EnvironmentPath = z.strictObject({ environment_slug: EnvironmentSlug });
const SigningKeyPath = z.strictObject({ environment_slug: EnvironmentSlug, signing_key_id: z.uuid() });

export const SigningKey = z
  .object({
    id: z.uuid(),
    environment: z.string(),
    algorithm: z.literal('RS256'),
    /** SPKI PEM: what user tokens are verified with. */
    public_key: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'SigningKey' });

export const CreatedSigningKey = SigningKey.extend({
  /** PKCS#8 PEM, shown this once: sign user tokens with it (e.g. signUserToken of @knocklabs/node). */
  private_key: z.string(),
  /** Keys of the environment this call revoked (a rotation). */
  revoked_signing_key_ids: z.array(z.uuid()),
}).meta({ id: 'CreatedSigningKey' });

export const EnvironmentSecurity = z
  .object({
    environment: z.string(),
    /** Publishable-key calls must carry a user token signed with an active signing key. */
    enhanced_security_mode: z.boolean(),
    active_signing_keys: z.number().int(),
  })
  .meta({ id: 'EnvironmentSecurity' });

export const listSigningKeysRoute = defineRoute({
  operationId: 'listSigningKeys',
  method: 'GET',
  path: '/v1/environments/{environment_slug}/signing_keys',
  summary: "List an environment's signing keys (public halves), oldest first",
  tags: ['Environments'],
  auth: 'service',
  scope: 'account',
  rateTier: 3,
  params: EnvironmentPath,
  response: z.object({ entries: z.array(SigningKey) }).meta({ id: 'ListSigningKeysResponse' }),
});

export const createSigningKeyRoute = defineRoute({
  operationId: 'createSigningKey',
  method: 'POST',
  path: '/v1/environments/{environment_slug}/signing_keys',
  summary: 'Create an RS256 signing key for user tokens; the private key is returned only in this response',
  tags: ['Environments'],
  auth: 'service',
  access: 'admin',
  scope: 'account',
  rateTier: 2,
  params: EnvironmentPath,
  response: CreatedSigningKey,
  status: 201,
});

export const rotateSigningKeyRoute = defineRoute({
  operationId: 'rotateSigningKey',
  method: 'POST',
  path: '/v1/environments/{environment_slug}/signing_keys/rotate',
  summary: 'Create a signing key and revoke every other key of the environment; tokens they signed stop working',
  tags: ['Environments'],
  auth: 'service',
  access: 'admin',
  scope: 'account',
  rateTier: 2,
  params: EnvironmentPath,
  response: CreatedSigningKey,
  status: 201,
});

export const revokeSigningKeyRoute = defineRoute({
  operationId: 'revokeSigningKey',
  method: 'DELETE',
  path: '/v1/environments/{environment_slug}/signing_keys/{signing_key_id}',
  summary: 'Revoke a signing key; tokens it signed stop working within seconds',
  tags: ['Environments'],
  auth: 'service',
  access: 'admin',
  scope: 'account',
  rateTier: 2,
  params: SigningKeyPath,
  response: SigningKey,
});

export const getEnvironmentSecurityRoute = defineRoute({
  operationId: 'getEnvironmentSecurity',
  method: 'GET',
  path: '/v1/environments/{environment_slug}/security',
  summary: "An environment's user-token settings",
  tags: ['Environments'],
  auth: 'service',
  scope: 'account',
  rateTier: 3,
  params: EnvironmentPath,
  response: EnvironmentSecurity,
});

export const updateEnvironmentSecurityRoute = defineRoute({
  operationId: 'updateEnvironmentSecurity',
  method: 'PUT',
  path: '/v1/environments/{environment_slug}/security',
  summary: 'Turn enhanced security mode on or off',
  tags: ['Environments'],
  auth: 'service',
  access: 'admin',
  scope: 'account',
  rateTier: 2,
  params: EnvironmentPath,
  body: z.strictObject({ enhanced_security_mode: z.boolean() }).meta({ id: 'UpdateEnvironmentSecurityRequest' }),
  response: EnvironmentSecurity,
});

export const ExchangeForApiKeyResponse = z.object({ api_key: z.string() }).meta({ id: 'ExchangeForApiKeyResponse' });

export const exchangeForApiKeyRoute = defineRoute({
  operationId: 'exchangeForApiKey',
  method: 'POST',
  path: '/v1/api_keys/exchange',
  summary: "The environment's secret API key for the calling service token (the same key each time; a revoked one is replaced)",
  tags: ['API keys'],
  auth: 'service',
  access: 'admin',
  scope: 'account',
  rateTier: 2,
  query: z.object({ environment: z.string().min(1).max(63) }),
  response: ExchangeForApiKeyResponse,
});
