import { AppendResult, EventStore } from '@notify/eventstore';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { randomUUID } from 'node:crypto';
import { CommandMetadata } from '../handle-command';
import { decideOnEnvironment } from './environment-use-cases';

export interface CreatedSigningKey {
  signingKeyId: string;
  publicKey: string;
  /** PKCS#8 PEM. Returned to the caller once; only the public half is recorded. */
  privateKey: string;
  createdAt: string;
  /** Keys a rotation revoked. */
  revoked: string[];
  append?: AppendResult;
}

/**
 * Generates an RS256 key pair for an environment's user tokens. With `rotate`, every other
 * active key of the environment is revoked in the same append, so tokens signed with them stop
 * verifying at once.
 */
export async function createSigningKey(
  store: EventStore,
  input: { environment: string; rotate: boolean },
  metadata: CommandMetadata,
): Promise<CreatedSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const signingKeyId = randomUUID();
  const now = new Date().toISOString();
  const spki = await exportSPKI(publicKey);
  const outcome = await decideOnEnvironment(
    store,
    input.environment,
    { type: 'CreateSigningKey', signingKeyId, publicKey: spki, revokeOthers: input.rotate, now },
    metadata,
  );
  return {
    signingKeyId,
    publicKey: spki,
    privateKey: await exportPKCS8(privateKey),
    createdAt: now,
    revoked: outcome.events.flatMap((e) => (e.type === 'SigningKeyRevoked' ? [e.data.signing_key_id] : [])),
    append: outcome.append,
  };
}

export async function revokeSigningKey(
  store: EventStore,
  input: { environment: string; signingKeyId: string },
  metadata: CommandMetadata,
): Promise<{ revoked: boolean; append?: AppendResult }> {
  const outcome = await decideOnEnvironment(
    store,
    input.environment,
    { type: 'RevokeSigningKey', signingKeyId: input.signingKeyId, now: new Date().toISOString() },
    metadata,
  );
  return { revoked: outcome.events.length > 0, append: outcome.append };
}

export async function setEnhancedSecurityMode(
  store: EventStore,
  input: { environment: string; enabled: boolean },
  metadata: CommandMetadata,
): Promise<{ changed: boolean; append?: AppendResult }> {
  const outcome = await decideOnEnvironment(
    store,
    input.environment,
    { type: 'SetEnhancedSecurityMode', enabled: input.enabled, now: new Date().toISOString() },
    metadata,
  );
  return { changed: outcome.events.length > 0, append: outcome.append };
}
