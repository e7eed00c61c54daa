import {
  ApiKeyIssued,
  ApiKeyRevoked,
  EnhancedSecurityModeChanged,
  EnvironmentCreated,
  ServiceTokenIssued,
  ServiceTokenRevoked,
  SigningKeyCreated,
  SigningKeyRevoked,
} from '@notify/contracts';
import { BOOTSTRAP_ACTOR } from '@notify/domain';
import { defineProjection } from '@notify/projection-runtime';

/** Environments, their API keys, signing keys and security mode, and the account's service tokens: what authentication reads. */
export const environmentsProjection = defineProjection({
  name: 'environments',
  version: 3,
  tables: ['rm_environments', 'rm_api_keys', 'rm_service_tokens', 'rm_signing_keys'],
  events: [EnvironmentCreated, ApiKeyIssued, ApiKeyRevoked, ServiceTokenIssued, ServiceTokenRevoked, SigningKeyCreated, SigningKeyRevoked, EnhancedSecurityModeChanged],
  on: {
    async EnvironmentCreated({ data, metadata }, tx) {
      // The environments of the first start are the system's; any other was added by someone.
      await tx.query(
        `INSERT INTO rm_environments (slug, name, sort_order, created_at, updated_at, owner) VALUES ($1, $2, $3, $4, $4, $5) ON CONFLICT (slug) DO NOTHING`,
        [data.slug, data.name, data.order, data.created_at, metadata.actor === BOOTSTRAP_ACTOR ? 'system' : 'user'],
      );
    },
    async ApiKeyIssued({ environment, data }, tx) {
      await tx.query(
        `INSERT INTO rm_api_keys (key_hash, key_id, environment, kind, hint, issued_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (key_hash) DO NOTHING`,
        [data.key_hash, data.key_id, environment, data.kind, data.hint, data.issued_at],
      );
    },
    async ApiKeyRevoked({ data }, tx) {
      await tx.query('UPDATE rm_api_keys SET revoked_at = $2 WHERE key_id = $1', [data.key_id, data.revoked_at]);
    },
    async ServiceTokenIssued({ data }, tx) {
      await tx.query(
        `INSERT INTO rm_service_tokens (token_hash, token_id, name, hint, issued_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (token_hash) DO NOTHING`,
        [data.token_hash, data.token_id, data.name, data.hint, data.issued_at],
      );
    },
    async ServiceTokenRevoked({ data }, tx) {
      await tx.query('UPDATE rm_service_tokens SET revoked_at = $2 WHERE token_id = $1', [data.token_id, data.revoked_at]);
    },
    async SigningKeyCreated({ environment, data }, tx) {
      await tx.query(
        `INSERT INTO rm_signing_keys (id, environment, algorithm, public_key, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
        [data.signing_key_id, environment, data.algorithm, data.public_key, data.created_at],
      );
    },
    async SigningKeyRevoked({ data }, tx) {
      await tx.query('UPDATE rm_signing_keys SET revoked_at = $2 WHERE id = $1', [data.signing_key_id, data.revoked_at]);
    },
    async EnhancedSecurityModeChanged({ environment, data }, tx) {
      await tx.query('UPDATE rm_environments SET enhanced_security_mode = $2, updated_at = $3 WHERE slug = $1', [environment, data.enabled, data.changed_at]);
    },
  },
});
