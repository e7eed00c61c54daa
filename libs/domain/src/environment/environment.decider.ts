import { assertNever, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { AccountCommand, ApiKeyKind, EnvironmentCommand } from './environment.commands';
import { AccountEvent, EnvironmentEvent } from './environment.events';

export interface EnvironmentState {
  exists: boolean;
  slug?: string;
  /** `replacedBy`: the key was rotated (it works until its expiry, then never again). */
  keys: Record<string, { kind: ApiKeyKind; keyHash: string; revoked: boolean; name?: string; replacedBy?: string }>;
  signingKeys: Record<string, { publicKey: string; revoked: boolean }>;
  enhancedSecurity: boolean;
}

const missingKey = () => new DomainError('api_key_missing', 'No such key in this environment', 'not_found');
const missingEnvironment = () => new DomainError('environment_missing', 'The environment does not exist', 'not_found');

export const environmentDecider: Decider<EnvironmentState, EnvironmentCommand, EnvironmentEvent> = {
  initialState: () => ({ exists: false, keys: {}, signingKeys: {}, enhancedSecurity: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'EnvironmentCreated':
        return { ...state, exists: true, slug: event.data.slug };
      case 'ApiKeyIssued':
        return {
          ...state,
          keys: {
            ...state.keys,
            [event.data.key_id]: { kind: event.data.kind, keyHash: event.data.key_hash, revoked: false, name: event.data.name },
          },
        };
      case 'ApiKeyRotated': {
        const key = state.keys[event.data.key_id];
        return key ? { ...state, keys: { ...state.keys, [event.data.key_id]: { ...key, replacedBy: event.data.replaced_by } } } : state;
      }
      case 'ApiKeyRevoked': {
        const key = state.keys[event.data.key_id];
        return key ? { ...state, keys: { ...state.keys, [event.data.key_id]: { ...key, revoked: true } } } : state;
      }
      case 'SigningKeyCreated':
        return {
          ...state,
          signingKeys: { ...state.signingKeys, [event.data.signing_key_id]: { publicKey: event.data.public_key, revoked: false } },
        };
      case 'SigningKeyRevoked': {
        const key = state.signingKeys[event.data.signing_key_id];
        return key ? { ...state, signingKeys: { ...state.signingKeys, [event.data.signing_key_id]: { ...key, revoked: true } } } : state;
      }
      case 'EnhancedSecurityModeChanged':
        return { ...state, enhancedSecurity: event.data.enabled };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateEnvironment':
        if (state.exists) return [];
        return [
          { type: 'EnvironmentCreated', data: { slug: command.slug, name: command.name, order: command.order, created_at: command.now } },
        ];
      case 'IssueApiKey': {
        if (!state.exists) throw missingEnvironment();
        const existing = state.keys[command.keyId];
        if (existing) {
          if (existing.keyHash === command.keyHash) return [];
          throw new DomainError('api_key_exists', 'A different key already has this id', 'conflict');
        }
        if (Object.values(state.keys).some((k) => k.keyHash === command.keyHash)) return [];
        const data = { key_id: command.keyId, kind: command.kind, key_hash: command.keyHash, hint: command.hint, issued_at: command.now };
        return [{ type: 'ApiKeyIssued', data: command.name === undefined ? data : { ...data, name: command.name } }];
      }
      case 'RotateApiKey': {
        const key = state.keys[command.keyId];
        if (!key) throw missingKey();
        const replacement = state.keys[command.newKeyId];
        // A retry of the same rotation: the replacement is there, issued from this key.
        if (key.replacedBy === command.newKeyId && replacement?.keyHash === command.keyHash) return [];
        if (key.revoked) throw new DomainError('api_key_revoked', 'A revoked key cannot be rotated', 'conflict');
        if (key.replacedBy)
          throw new DomainError('api_key_rotated', `The key was already rotated; its replacement is ${key.replacedBy}`, 'conflict');
        if (replacement || Object.values(state.keys).some((k) => k.keyHash === command.keyHash))
          throw new DomainError('api_key_exists', 'A key with this id or secret already exists', 'conflict');
        const issued = {
          key_id: command.newKeyId,
          kind: key.kind,
          key_hash: command.keyHash,
          hint: command.hint,
          issued_at: command.now,
          rotated_from: command.keyId,
        };
        return [
          { type: 'ApiKeyIssued', data: key.name === undefined ? issued : { ...issued, name: key.name } },
          {
            type: 'ApiKeyRotated',
            data: { key_id: command.keyId, replaced_by: command.newKeyId, expires_at: command.expiresAt, rotated_at: command.now },
          },
        ];
      }
      case 'RevokeApiKey': {
        const key = state.keys[command.keyId];
        if (!key) throw missingKey();
        if (key.revoked) return [];
        return [{ type: 'ApiKeyRevoked', data: { key_id: command.keyId, revoked_at: command.now } }];
      }
      case 'CreateSigningKey': {
        if (!state.exists) throw missingEnvironment();
        const existing = state.signingKeys[command.signingKeyId];
        if (existing) {
          if (existing.publicKey === command.publicKey) return [];
          throw new DomainError('signing_key_exists', 'A different signing key already has this id', 'conflict');
        }
        const others = command.revokeOthers ? Object.entries(state.signingKeys).filter(([, k]) => !k.revoked) : [];
        return [
          {
            type: 'SigningKeyCreated',
            data: { signing_key_id: command.signingKeyId, algorithm: 'RS256', public_key: command.publicKey, created_at: command.now },
          },
          ...others.map(([id]) => ({ type: 'SigningKeyRevoked' as const, data: { signing_key_id: id, revoked_at: command.now } })),
        ];
      }
      case 'RevokeSigningKey': {
        const key = state.signingKeys[command.signingKeyId];
        if (!key) throw new DomainError('signing_key_missing', 'No such signing key in this environment', 'not_found');
        if (key.revoked) return [];
        return [{ type: 'SigningKeyRevoked', data: { signing_key_id: command.signingKeyId, revoked_at: command.now } }];
      }
      case 'SetEnhancedSecurityMode':
        if (!state.exists) throw missingEnvironment();
        if (state.enhancedSecurity === command.enabled) return [];
        return [{ type: 'EnhancedSecurityModeChanged', data: { enabled: command.enabled, changed_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

export interface AccountState {
  tokens: Record<string, { tokenHash: string; revoked: boolean }>;
}

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  initialState: () => ({ tokens: {} }),

  evolve(state, event) {
    switch (event.type) {
      case 'ServiceTokenIssued':
        return { tokens: { ...state.tokens, [event.data.token_id]: { tokenHash: event.data.token_hash, revoked: false } } };
      case 'ServiceTokenRevoked': {
        const token = state.tokens[event.data.token_id];
        return token ? { tokens: { ...state.tokens, [event.data.token_id]: { ...token, revoked: true } } } : state;
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'IssueServiceToken':
        if (state.tokens[command.tokenId] || Object.values(state.tokens).some((t) => t.tokenHash === command.tokenHash)) return [];
        return [
          {
            type: 'ServiceTokenIssued',
            data: {
              token_id: command.tokenId,
              name: command.name,
              token_hash: command.tokenHash,
              hint: command.hint,
              issued_at: command.now,
            },
          },
        ];
      case 'RevokeServiceToken': {
        const token = state.tokens[command.tokenId];
        if (!token) throw new DomainError('service_token_missing', 'No such service token', 'not_found');
        if (token.revoked) return [];
        return [{ type: 'ServiceTokenRevoked', data: { token_id: command.tokenId, revoked_at: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
