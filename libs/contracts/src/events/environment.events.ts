import { z } from 'zod';
import { defineEvent } from './define-event';

export const EnvironmentSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and dashes, up to 63');

export const EnvironmentCreated = defineEvent(
  'EnvironmentCreated',
  1,
  z.object({ slug: EnvironmentSlug, name: z.string().min(1).max(255), order: z.number().int(), created_at: z.string() }),
);

export const ApiKeyKind = z.enum(['secret', 'publishable']);

export const ApiKeyIssued = defineEvent(
  'ApiKeyIssued',
  1,
  z.object({
    key_id: z.uuid(),
    kind: ApiKeyKind,
    /** sha256 of the key; the key itself is never stored. */
    key_hash: z.string().regex(/^[0-9a-f]{64}$/),
    /** Last characters, to recognise a key in listings. */
    hint: z.string().max(8),
    issued_at: z.string(),
    /** A label for listings (keys issued through the management API; older events have none). */
    name: z.string().max(255).optional(),
    /** The key this one replaces (a rotation: see ApiKeyRotated). */
    rotated_from: z.uuid().optional(),
  }),
);

/**
 * A key was rotated: `replaced_by` was issued in its place (the ApiKeyIssued just before), and
 * this key keeps authenticating until `expires_at`, the overlap its callers have to switch.
 */
export const ApiKeyRotated = defineEvent(
  'ApiKeyRotated',
  1,
  z.object({ key_id: z.uuid(), replaced_by: z.uuid(), expires_at: z.string(), rotated_at: z.string() }),
);

export const ApiKeyRevoked = defineEvent('ApiKeyRevoked', 1, z.object({ key_id: z.uuid(), revoked_at: z.string() }));

export const ServiceTokenIssued = defineEvent(
  'ServiceTokenIssued',
  1,
  z.object({
    token_id: z.uuid(),
    name: z.string().max(255),
    token_hash: z.string().regex(/^[0-9a-f]{64}$/),
    hint: z.string().max(8),
    issued_at: z.string(),
  }),
);

export const ServiceTokenRevoked = defineEvent('ServiceTokenRevoked', 1, z.object({ token_id: z.uuid(), revoked_at: z.string() }));

/** The public half of an RS256 key pair; user tokens of the environment are verified with it. */
export const SigningKeyCreated = defineEvent(
  'SigningKeyCreated',
  1,
  z.object({
    signing_key_id: z.uuid(),
    algorithm: z.literal('RS256'),
    /** SPKI PEM; the private key is handed to the caller once and never stored. */
    public_key: z.string().startsWith('-----BEGIN PUBLIC KEY-----'),
    created_at: z.string(),
  }),
);

export const SigningKeyRevoked = defineEvent('SigningKeyRevoked', 1, z.object({ signing_key_id: z.uuid(), revoked_at: z.string() }));

/** Enhanced security mode: publishable-key calls must carry a signed user token. */
export const EnhancedSecurityModeChanged = defineEvent(
  'EnhancedSecurityModeChanged',
  1,
  z.object({ enabled: z.boolean(), changed_at: z.string() }),
);

/** A range of the log re-published to the Kafka stream topics (ADR 0154): who asked, what went out. */
export const LogReplayedToKafka = defineEvent(
  'LogReplayedToKafka',
  1,
  z.object({
    replay_id: z.uuid(),
    from: z.string(),
    to: z.string(),
    events: z.number().int(),
    records: z.number().int(),
    last_position: z.string().nullable(),
    next_from: z.string().nullable(),
    replayed_at: z.string(),
    /** The range asked by global positions or times (ADR 0198); `from`/`to` are then where its events lay ('' when none). */
    from_global_position: z.string().nullable().optional(),
    to_global_position: z.string().nullable().optional(),
    since: z.string().nullable().optional(),
    until: z.string().nullable().optional(),
  }),
);

export const environmentEventContracts = [
  EnvironmentCreated,
  ApiKeyIssued,
  ApiKeyRevoked,
  ApiKeyRotated,
  SigningKeyCreated,
  SigningKeyRevoked,
  EnhancedSecurityModeChanged,
] as const;
export const accountEventContracts = [ServiceTokenIssued, ServiceTokenRevoked, LogReplayedToKafka] as const;
