import {
  ApiKeyIssued,
  ApiKeyRevoked,
  EnhancedSecurityModeChanged,
  EnvironmentCreated,
  EventOf,
  ServiceTokenIssued,
  ServiceTokenRevoked,
  SigningKeyCreated,
  SigningKeyRevoked,
} from '@notify/contracts';
import { BOOTSTRAP_ACTOR } from '@notify/domain';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled =
  | EventOf<typeof EnvironmentCreated>
  | EventOf<typeof ApiKeyIssued>
  | EventOf<typeof ApiKeyRevoked>
  | EventOf<typeof ServiceTokenIssued>
  | EventOf<typeof ServiceTokenRevoked>
  | EventOf<typeof SigningKeyCreated>
  | EventOf<typeof SigningKeyRevoked>
  | EventOf<typeof EnhancedSecurityModeChanged>;

/** Environments, their API keys, signing keys and security mode, and the account's service tokens: what authentication reads. */
export const environmentsProjection: Projection = {
  name: 'environments',
  version: 3,
  filter: {
    eventTypes: [
      'EnvironmentCreated',
      'ApiKeyIssued',
      'ApiKeyRevoked',
      'ServiceTokenIssued',
      'ServiceTokenRevoked',
      'SigningKeyCreated',
      'SigningKeyRevoked',
      'EnhancedSecurityModeChanged',
    ],
  },
  // rm_credentials_version was added without a version bump: a rebuild would leave the keys
  // tables empty for its duration, and the row is right from the next change on (ADR 0136).
  tables: ['rm_environments', 'rm_api_keys', 'rm_service_tokens', 'rm_signing_keys', 'rm_credentials_version'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled & { metadata: RecordedEvent['metadata'] };
      switch (event.type) {
        case 'EnvironmentCreated':
          // The environments of the first start are the system's; any other was added by someone.
          await tx.query(
            `INSERT INTO rm_environments (slug, name, sort_order, created_at, updated_at, owner) VALUES ($1, $2, $3, $4, $4, $5) ON CONFLICT (slug) DO NOTHING`,
            [
              event.data.slug,
              event.data.name,
              event.data.order,
              event.data.created_at,
              recorded.metadata.actor === BOOTSTRAP_ACTOR ? 'system' : 'user',
            ],
          );
          break;
        case 'ApiKeyIssued':
          await tx.query(
            `INSERT INTO rm_api_keys (key_hash, key_id, environment, kind, hint, issued_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (key_hash) DO NOTHING`,
            [event.data.key_hash, event.data.key_id, recorded.metadata.environment, event.data.kind, event.data.hint, event.data.issued_at],
          );
          break;
        case 'ApiKeyRevoked':
          await tx.query('UPDATE rm_api_keys SET revoked_at = $2 WHERE key_id = $1', [event.data.key_id, event.data.revoked_at]);
          break;
        case 'ServiceTokenIssued':
          await tx.query(
            `INSERT INTO rm_service_tokens (token_hash, token_id, name, hint, issued_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (token_hash) DO NOTHING`,
            [event.data.token_hash, event.data.token_id, event.data.name, event.data.hint, event.data.issued_at],
          );
          break;
        case 'ServiceTokenRevoked':
          await tx.query('UPDATE rm_service_tokens SET revoked_at = $2 WHERE token_id = $1', [event.data.token_id, event.data.revoked_at]);
          break;
        case 'SigningKeyCreated':
          await tx.query(
            `INSERT INTO rm_signing_keys (id, environment, algorithm, public_key, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
            [event.data.signing_key_id, recorded.metadata.environment, event.data.algorithm, event.data.public_key, event.data.created_at],
          );
          break;
        case 'SigningKeyRevoked':
          await tx.query('UPDATE rm_signing_keys SET revoked_at = $2 WHERE id = $1', [event.data.signing_key_id, event.data.revoked_at]);
          break;
        case 'EnhancedSecurityModeChanged':
          await tx.query('UPDATE rm_environments SET enhanced_security_mode = $2, updated_at = $3 WHERE slug = $1', [
            recorded.metadata.environment,
            event.data.enabled,
            event.data.changed_at,
          ]);
          break;
      }
    }
    // Every event here changes what authentication decides: the version moves in the same
    // transaction as the change, so a reader that sees the new version sees the change too.
    if (events.length) {
      await tx.query(
        `INSERT INTO rm_credentials_version (id, position) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position`,
        [events[events.length - 1].position],
      );
    }
  },
};
