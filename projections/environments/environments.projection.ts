import {
  ApiKeyIssued,
  ApiKeyRevoked,
  ApiKeyRotated,
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
  // rm_credentials_version was added without a version bump: a rebuild would leave the keys
  // tables empty for its duration, and the row is right from the next change on (ADR 0136).
  tables: ['rm_environments', 'rm_api_keys', 'rm_service_tokens', 'rm_signing_keys', 'rm_credentials_version'],
  events: [
    EnvironmentCreated,
    ApiKeyIssued,
    ApiKeyRevoked,
    ApiKeyRotated,
    ServiceTokenIssued,
    ServiceTokenRevoked,
    SigningKeyCreated,
    SigningKeyRevoked,
    EnhancedSecurityModeChanged,
  ],
  on: {
    async EnvironmentCreated({ data: d, metadata }, tx) {
      // The environments of the first start are the system's; any other was added by someone.
      await tx.query(
        `INSERT INTO rm_environments (slug, name, sort_order, created_at, updated_at, owner) VALUES ($1, $2, $3, $4, $4, $5) ON CONFLICT (slug) DO NOTHING`,
        [d.slug, d.name, d.order, d.created_at, metadata.actor === BOOTSTRAP_ACTOR ? 'system' : 'user'],
      );
    },
    async ApiKeyIssued({ data: d, environment }, tx) {
      await tx.query(
        `INSERT INTO rm_api_keys (key_hash, key_id, environment, kind, hint, issued_at, name) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (key_hash) DO NOTHING`,
        [d.key_hash, d.key_id, environment, d.kind, d.hint, d.issued_at, d.name ?? null],
      );
    },
    async ApiKeyRotated({ data: d }, tx) {
      await tx.query('UPDATE rm_api_keys SET replaced_by = $2, expires_at = $3 WHERE key_id = $1', [d.key_id, d.replaced_by, d.expires_at]);
    },
    async ApiKeyRevoked({ data: d }, tx) {
      await tx.query('UPDATE rm_api_keys SET revoked_at = $2 WHERE key_id = $1', [d.key_id, d.revoked_at]);
    },
    async ServiceTokenIssued({ data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_service_tokens (token_hash, token_id, name, hint, issued_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (token_hash) DO NOTHING`,
        [d.token_hash, d.token_id, d.name, d.hint, d.issued_at],
      );
    },
    async ServiceTokenRevoked({ data: d }, tx) {
      await tx.query('UPDATE rm_service_tokens SET revoked_at = $2 WHERE token_id = $1', [d.token_id, d.revoked_at]);
    },
    async SigningKeyCreated({ data: d, environment }, tx) {
      await tx.query(
        `INSERT INTO rm_signing_keys (id, environment, algorithm, public_key, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
        [d.signing_key_id, environment, d.algorithm, d.public_key, d.created_at],
      );
    },
    async SigningKeyRevoked({ data: d }, tx) {
      await tx.query('UPDATE rm_signing_keys SET revoked_at = $2 WHERE id = $1', [d.signing_key_id, d.revoked_at]);
    },
    async EnhancedSecurityModeChanged({ data: d, environment }, tx) {
      await tx.query('UPDATE rm_environments SET enhanced_security_mode = $2, updated_at = $3 WHERE slug = $1', [
        environment,
        d.enabled,
        d.changed_at,
      ]);
    },
  },
  // Every event here changes what authentication decides: the version moves in the same
  // transaction as the change, so a reader that sees the new version sees the change too.
  async afterBatch(events, tx) {
    await tx.query(
      `INSERT INTO rm_credentials_version (id, position) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position`,
      [events[events.length - 1].position],
    );
  },
});
