import { deciderSpec } from '@notify/testing/decider-spec';
import { accountDecider, environmentDecider } from './environment.decider';

const now = '2026-01-01T00:00:00.000Z';
const keyId = '00000000-0000-4000-8000-000000000001';
const hash = 'a'.repeat(64);
const created = { type: 'EnvironmentCreated' as const, data: { slug: 'development', name: 'Development', order: 0, created_at: now } };
const issued = {
  type: 'ApiKeyIssued' as const,
  data: { key_id: keyId, kind: 'secret' as const, key_hash: hash, hint: 'abcd', issued_at: now },
};

describe('environment decider', () => {
  const spec = deciderSpec(environmentDecider);

  it('creates an environment once', () => {
    spec.given([]).when({ type: 'CreateEnvironment', slug: 'development', name: 'Development', order: 0, now }).then([created]);
    spec.given([created]).when({ type: 'CreateEnvironment', slug: 'development', name: 'Development', order: 0, now }).thenNothing();
  });

  it('issues a key only in an existing environment', () => {
    const issue = { type: 'IssueApiKey' as const, keyId, kind: 'secret' as const, keyHash: hash, hint: 'abcd', now };
    spec.given([]).when(issue).thenThrows('environment_missing');
    spec.given([created]).when(issue).then([issued]);
  });

  it('treats re-issuing the same key as already done, and a different key under the same id as a conflict', () => {
    spec.given([created, issued]).when({ type: 'IssueApiKey', keyId, kind: 'secret', keyHash: hash, hint: 'abcd', now }).thenNothing();
    spec
      .given([created, issued])
      .when({ type: 'IssueApiKey', keyId, kind: 'secret', keyHash: 'b'.repeat(64), hint: 'x', now })
      .thenThrows('api_key_exists');
  });

  it('revokes a key once', () => {
    const revoked = { type: 'ApiKeyRevoked' as const, data: { key_id: keyId, revoked_at: now } };
    spec.given([created, issued]).when({ type: 'RevokeApiKey', keyId, now }).then([revoked]);
    spec.given([created, issued, revoked]).when({ type: 'RevokeApiKey', keyId, now }).thenNothing();
    spec.given([created]).when({ type: 'RevokeApiKey', keyId, now }).thenThrows('api_key_missing');
  });

  it('keeps a name given at issue', () => {
    spec
      .given([created])
      .when({ type: 'IssueApiKey', keyId, kind: 'secret', keyHash: hash, hint: 'abcd', name: 'ci', now })
      .then([{ ...issued, data: { ...issued.data, name: 'ci' } }]);
  });

  it('rotates a key once: a replacement of the same kind and name, the old key expiring after the overlap', () => {
    const newKeyId = '00000000-0000-4000-8000-000000000009';
    const named = { ...issued, data: { ...issued.data, name: 'ci' } };
    const expiresAt = '2026-01-02T00:00:00.000Z';
    const rotate = { type: 'RotateApiKey' as const, keyId, newKeyId, keyHash: 'c'.repeat(64), hint: 'wxyz', expiresAt, now };
    const replacement = {
      type: 'ApiKeyIssued' as const,
      data: {
        key_id: newKeyId,
        kind: 'secret' as const,
        key_hash: 'c'.repeat(64),
        hint: 'wxyz',
        issued_at: now,
        rotated_from: keyId,
        name: 'ci',
      },
    };
    const rotated = {
      type: 'ApiKeyRotated' as const,
      data: { key_id: keyId, replaced_by: newKeyId, expires_at: expiresAt, rotated_at: now },
    };
    spec.given([created, named]).when(rotate).then([replacement, rotated]);
    spec.given([created, named, replacement, rotated]).when(rotate).thenNothing();
    spec
      .given([created, named, replacement, rotated])
      .when({ ...rotate, newKeyId: '00000000-0000-4000-8000-00000000000a', keyHash: 'd'.repeat(64) })
      .thenThrows('api_key_rotated');
    spec
      .given([created, named, { type: 'ApiKeyRevoked', data: { key_id: keyId, revoked_at: now } }])
      .when(rotate)
      .thenThrows('api_key_revoked');
    spec.given([created]).when(rotate).thenThrows('api_key_missing');
  });
});

describe('environment decider: signing keys and enhanced security', () => {
  const spec = deciderSpec(environmentDecider);
  const first = '00000000-0000-4000-8000-0000000000a1';
  const second = '00000000-0000-4000-8000-0000000000a2';
  const pem = (n: number) => `-----BEGIN PUBLIC KEY-----\nkey${n}\n-----END PUBLIC KEY-----`;
  const keyCreated = (id: string, n: number) => ({
    type: 'SigningKeyCreated' as const,
    data: { signing_key_id: id, algorithm: 'RS256' as const, public_key: pem(n), created_at: now },
  });
  const keyRevoked = (id: string) => ({ type: 'SigningKeyRevoked' as const, data: { signing_key_id: id, revoked_at: now } });

  it('creates a signing key once, in an existing environment only', () => {
    const create = { type: 'CreateSigningKey' as const, signingKeyId: first, publicKey: pem(1), revokeOthers: false, now };
    spec.given([]).when(create).thenThrows('environment_missing');
    spec
      .given([created])
      .when(create)
      .then([keyCreated(first, 1)]);
    spec
      .given([created, keyCreated(first, 1)])
      .when(create)
      .thenNothing();
    spec
      .given([created, keyCreated(first, 1)])
      .when({ ...create, publicKey: pem(2) })
      .thenThrows('signing_key_exists');
  });

  it('keeps earlier keys when adding one, and revokes every other active key when rotating', () => {
    spec
      .given([created, keyCreated(first, 1)])
      .when({ type: 'CreateSigningKey', signingKeyId: second, publicKey: pem(2), revokeOthers: false, now })
      .then([keyCreated(second, 2)]);
    spec
      .given([created, keyCreated(first, 1)])
      .when({ type: 'CreateSigningKey', signingKeyId: second, publicKey: pem(2), revokeOthers: true, now })
      .then([keyCreated(second, 2), keyRevoked(first)]);
    spec
      .given([created, keyCreated(first, 1), keyRevoked(first)])
      .when({ type: 'CreateSigningKey', signingKeyId: second, publicKey: pem(2), revokeOthers: true, now })
      .then([keyCreated(second, 2)]);
  });

  it('revokes a signing key once', () => {
    spec.given([created]).when({ type: 'RevokeSigningKey', signingKeyId: first, now }).thenThrows('signing_key_missing');
    spec
      .given([created, keyCreated(first, 1)])
      .when({ type: 'RevokeSigningKey', signingKeyId: first, now })
      .then([keyRevoked(first)]);
    spec
      .given([created, keyCreated(first, 1), keyRevoked(first)])
      .when({ type: 'RevokeSigningKey', signingKeyId: first, now })
      .thenNothing();
  });

  it('records a change of enhanced security mode only when it changes', () => {
    const on = { type: 'EnhancedSecurityModeChanged' as const, data: { enabled: true, changed_at: now } };
    spec.given([]).when({ type: 'SetEnhancedSecurityMode', enabled: true, now }).thenThrows('environment_missing');
    spec.given([created]).when({ type: 'SetEnhancedSecurityMode', enabled: false, now }).thenNothing();
    spec.given([created]).when({ type: 'SetEnhancedSecurityMode', enabled: true, now }).then([on]);
    spec.given([created, on]).when({ type: 'SetEnhancedSecurityMode', enabled: true, now }).thenNothing();
    spec
      .given([created, on])
      .when({ type: 'SetEnhancedSecurityMode', enabled: false, now })
      .then([{ type: 'EnhancedSecurityModeChanged', data: { enabled: false, changed_at: now } }]);
  });
});

describe('account decider', () => {
  const spec = deciderSpec(accountDecider);
  const tokenId = '00000000-0000-4000-8000-000000000002';
  const tokenIssued = {
    type: 'ServiceTokenIssued' as const,
    data: { token_id: tokenId, name: 'bootstrap', token_hash: hash, hint: 'wxyz', issued_at: now },
  };

  it('issues a service token idempotently and revokes it', () => {
    spec.given([]).when({ type: 'IssueServiceToken', tokenId, name: 'bootstrap', tokenHash: hash, hint: 'wxyz', now }).then([tokenIssued]);
    spec
      .given([tokenIssued])
      .when({ type: 'IssueServiceToken', tokenId, name: 'bootstrap', tokenHash: hash, hint: 'wxyz', now })
      .thenNothing();
    spec
      .given([tokenIssued])
      .when({ type: 'RevokeServiceToken', tokenId, now })
      .then([{ type: 'ServiceTokenRevoked', data: { token_id: tokenId, revoked_at: now } }]);
  });
});
