import {
  accountDecider,
  accountStream,
  EnvironmentCommand,
  EnvironmentState,
  environmentDecider,
  environmentStream,
  fold,
} from '@notify/domain';
import { AppendResult, EventStore } from '@notify/eventstore';
import { createHmac } from 'node:crypto';
import { generateSecret, hashSecret, hintOf, SECRET_ALPHABET } from './credential-secrets';
import { toDomainEvent } from '../handle-command';
import type { SecretBox } from '../config/secret-box';
import { uuidV5 as uuidv5 } from '@notify/contracts';
import { CommandMetadata, handleCommand } from '../handle-command';

const NAMESPACE = '6f1d3c1e-8a0b-4c53-9d8e-3b1f0c2a7e55';
/** Ids derived from content, so re-issuing the same credential is recognised as done. */
export const credentialId = (seed: string) => uuidv5(seed, NAMESPACE);

/** Decides one command on an environment's stream, its events recorded in that environment. */
export function decideOnEnvironment(store: EventStore, environment: string, command: EnvironmentCommand, metadata: CommandMetadata) {
  return handleCommand(store, environmentStream(environment), environmentDecider, command, { ...metadata, environment });
}

export async function createEnvironment(
  store: EventStore,
  input: { slug: string; name?: string; order?: number },
  metadata: CommandMetadata,
): Promise<{ created: boolean; append?: AppendResult }> {
  const outcome = await handleCommand(
    store,
    environmentStream(input.slug),
    environmentDecider,
    { type: 'CreateEnvironment', slug: input.slug, name: input.name ?? input.slug, order: input.order ?? 0, now: new Date().toISOString() },
    { ...metadata, environment: input.slug },
  );
  return { created: outcome.events.length > 0, append: outcome.append };
}

export async function issueApiKey(
  store: EventStore,
  input: { environment: string; kind: 'secret' | 'publishable'; key?: string; keyId?: string; name?: string },
  metadata: CommandMetadata,
): Promise<{ key: string; keyId: string; issued: boolean; append?: AppendResult }> {
  const key = input.key ?? generateSecret(input.kind === 'secret' ? 'sk' : 'pk');
  const keyHash = hashSecret(key);
  const keyId = input.keyId ?? credentialId(keyHash);
  const outcome = await decideOnEnvironment(
    store,
    input.environment,
    { type: 'IssueApiKey', keyId, kind: input.kind, keyHash, hint: hintOf(key), name: input.name, now: new Date().toISOString() },
    metadata,
  );
  return { key, keyId, issued: outcome.events.length > 0, append: outcome.append };
}

export async function revokeApiKey(
  store: EventStore,
  input: { environment: string; keyId: string },
  metadata: CommandMetadata,
): Promise<{ revoked: boolean; append?: AppendResult }> {
  const outcome = await decideOnEnvironment(
    store,
    input.environment,
    { type: 'RevokeApiKey', keyId: input.keyId, now: new Date().toISOString() },
    metadata,
  );
  return { revoked: outcome.events.length > 0, append: outcome.append };
}

/**
 * Issues a new secret for a key (same kind and name): the old one keeps authenticating for
 * `overlapSeconds` (0: it stops at once), so callers can switch without an outage. The new
 * secret is returned here and nowhere else; the log holds only its hash.
 */
export async function rotateApiKey(
  store: EventStore,
  input: { environment: string; keyId: string; overlapSeconds: number; now?: Date },
  metadata: CommandMetadata,
): Promise<{ key: string; keyId: string; kind: 'secret' | 'publishable'; expiresAt: string; append?: AppendResult }> {
  const history = await store.readStream(environmentStream(input.environment));
  const state = fold(environmentDecider, history.map(toDomainEvent) as never);
  const kind = state.keys[input.keyId]?.kind ?? 'secret';
  const key = generateSecret(kind === 'secret' ? 'sk' : 'pk');
  const keyHash = hashSecret(key);
  const newKeyId = credentialId(keyHash);
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + input.overlapSeconds * 1000).toISOString();
  const outcome = await decideOnEnvironment(
    store,
    input.environment,
    { type: 'RotateApiKey', keyId: input.keyId, newKeyId, keyHash, hint: hintOf(key), expiresAt, now: now.toISOString() },
    metadata,
  );
  return { key, keyId: newKeyId, kind, expiresAt, append: outcome.append };
}

export async function issueServiceToken(
  store: EventStore,
  input: { name: string; token?: string; tokenId?: string },
  metadata: CommandMetadata,
): Promise<{ token: string; tokenId: string; issued: boolean; append?: AppendResult }> {
  const token = input.token ?? generateSecret('', 48);
  const tokenHash = hashSecret(token);
  const tokenId = input.tokenId ?? credentialId(tokenHash);
  const outcome = await handleCommand(
    store,
    accountStream(),
    accountDecider,
    { type: 'IssueServiceToken', tokenId, name: input.name, tokenHash, hint: hintOf(token), now: new Date().toISOString() },
    { ...metadata, environment: null },
  );
  return { token, tokenId, issued: outcome.events.length > 0, append: outcome.append };
}

/**
 * The secret key a service token is exchanged for in an environment (`POST /v1/api_keys/exchange`):
 * derived, not drawn, from the token's id and the environment (an HMAC under a subkey of
 * SECRETS_KEY), so exchanging again answers the same key and the log gains one key per token and
 * environment, not one per call. A derived key that was revoked is skipped for the next one.
 */
export function exchangedKey(box: SecretBox, tokenId: string, environment: string, generation: number): string {
  const subkey = box.subkey('api-key-exchange');
  const block = (n: number) => createHmac('sha256', subkey).update(`${tokenId}\u0000${environment}\u0000${generation}\u0000${n}`).digest();
  const bytes = Buffer.concat([block(1), block(2)]).subarray(0, 40);
  let body = '';
  for (const b of bytes) body += SECRET_ALPHABET[b % SECRET_ALPHABET.length];
  return `sk_${body}`;
}

/** The first derived key of the token in the environment that is not revoked. */
export function currentExchangedKey(state: EnvironmentState, box: SecretBox, tokenId: string, environment: string): string {
  for (let generation = 0; ; generation++) {
    const key = exchangedKey(box, tokenId, environment, generation);
    const existing = state.keys[credentialId(hashSecret(key))];
    // A rotated derived key is on its way out: the exchange answers the next one.
    if (!existing?.revoked && !existing?.replacedBy) return key;
  }
}

export async function exchangeServiceToken(
  store: EventStore,
  box: SecretBox,
  input: { tokenId: string; environment: string },
  metadata: CommandMetadata,
): Promise<{ key: string; issued: boolean; append?: AppendResult }> {
  const history = await store.readStream(environmentStream(input.environment));
  const state = fold(environmentDecider, history.map(toDomainEvent) as never);
  const key = currentExchangedKey(state, box, input.tokenId, input.environment);
  const issued = await issueApiKey(store, { environment: input.environment, kind: 'secret', key }, metadata);
  return { key, issued: issued.issued, append: issued.append };
}
