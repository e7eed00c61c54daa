import { deciderSpec } from '@notify/testing/decider-spec';
import { accountDecider, environmentDecider } from './environment.decider';

const now = '2026-01-01T00:00:00.000Z';
const keyId = '00000000-0000-4000-8000-000000000001';
const hash = 'a'.repeat(64);
const created = { type: 'EnvironmentCreated' as const, data: { slug: 'development', name: 'Development', order: 0, created_at: now } };
const issued = { type: 'ApiKeyIssued' as const, data: { key_id: keyId, kind: 'secret' as const, key_hash: hash, hint: 'abcd', issued_at: now } };

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
    spec.given([created, issued]).when({ type: 'IssueApiKey', keyId, kind: 'secret', keyHash: 'b'.repeat(64), hint: 'x', now }).thenThrows('api_key_exists');
  });

  it('revokes a key once', () => {
    const revoked = { type: 'ApiKeyRevoked' as const, data: { key_id: keyId, revoked_at: now } };
    spec.given([created, issued]).when({ type: 'RevokeApiKey', keyId, now }).then([revoked]);
    spec.given([created, issued, revoked]).when({ type: 'RevokeApiKey', keyId, now }).thenNothing();
    spec.given([created]).when({ type: 'RevokeApiKey', keyId, now }).thenThrows('api_key_missing');
  });
});

describe('account decider', () => {
  const spec = deciderSpec(accountDecider);
  const tokenId = '00000000-0000-4000-8000-000000000002';
  const tokenIssued = { type: 'ServiceTokenIssued' as const, data: { token_id: tokenId, name: 'bootstrap', token_hash: hash, hint: 'wxyz', issued_at: now } };

  it('issues a service token idempotently and revokes it', () => {
    spec.given([]).when({ type: 'IssueServiceToken', tokenId, name: 'bootstrap', tokenHash: hash, hint: 'wxyz', now }).then([tokenIssued]);
    spec.given([tokenIssued]).when({ type: 'IssueServiceToken', tokenId, name: 'bootstrap', tokenHash: hash, hint: 'wxyz', now }).thenNothing();
    spec.given([tokenIssued]).when({ type: 'RevokeServiceToken', tokenId, now }).then([{ type: 'ServiceTokenRevoked', data: { token_id: tokenId, revoked_at: now } }]);
  });
});
