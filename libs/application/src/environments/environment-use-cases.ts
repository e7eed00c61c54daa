import { accountDecider, accountStream, environmentDecider, environmentStream } from '@notify/domain';
import { AppendResult, EventStore } from '@notify/eventstore';
import { generateSecret, hashSecret, hintOf } from './credential-secrets';
import { v5 as uuidv5 } from 'uuid';
import { CommandMetadata, handleCommand } from '../handle-command';

const NAMESPACE = '6f1d3c1e-8a0b-4c53-9d8e-3b1f0c2a7e55';
/** Ids derived from content, so re-issuing the same credential is recognised as done. */
export const credentialId = (seed: string) => uuidv5(seed, NAMESPACE);

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
  input: { environment: string; kind: 'secret' | 'publishable'; key?: string; keyId?: string },
  metadata: CommandMetadata,
): Promise<{ key: string; keyId: string; issued: boolean; append?: AppendResult }> {
  const key = input.key ?? generateSecret(input.kind === 'secret' ? 'sk' : 'pk');
  const keyHash = hashSecret(key);
  const keyId = input.keyId ?? credentialId(keyHash);
  const outcome = await handleCommand(
    store,
    environmentStream(input.environment),
    environmentDecider,
    { type: 'IssueApiKey', keyId, kind: input.kind, keyHash, hint: hintOf(key), now: new Date().toISOString() },
    { ...metadata, environment: input.environment },
  );
  return { key, keyId, issued: outcome.events.length > 0, append: outcome.append };
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
