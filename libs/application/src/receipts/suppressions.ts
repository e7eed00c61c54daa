import { createHash } from 'node:crypto';
import { MessageCreatedData, normaliseAddress, suppressionDecider } from '@notify/domain';
import type { EventStore } from '@notify/eventstore';
import { CommandMetadata, handleCommand } from '../handle-command';

/**
 * One stream per suppressed address of an environment, named by a digest of the address: the
 * address is personal data and a stream name cannot be erased (ADR 0204).
 */
export const suppressionStream = (environment: string, address: string) =>
  `suppression-${environment}-${createHash('sha256').update(normaliseAddress(address)).digest('hex').slice(0, 40)}`;

/** Suppresses an address by hand (management API); suppressing it again records nothing. */
export async function suppressAddress(
  store: EventStore,
  environment: string,
  address: string,
  detail: string | null,
  now: Date,
  meta: CommandMetadata,
) {
  return handleCommand(
    store,
    suppressionStream(environment, address),
    suppressionDecider,
    {
      type: 'Suppress',
      address: normaliseAddress(address),
      reason: 'manual',
      userId: null,
      messageId: null,
      source: null,
      detail,
      now: now.toISOString(),
    },
    meta,
  );
}

/** Lets messages reach the address again; 404 when it is not suppressed. */
export async function unsuppressAddress(store: EventStore, environment: string, address: string, now: Date, meta: CommandMetadata) {
  return handleCommand(
    store,
    suppressionStream(environment, address),
    suppressionDecider,
    { type: 'Unsuppress', address: normaliseAddress(address), now: now.toISOString() },
    meta,
  );
}

/** The address a message went to: an email's or an SMS's `to`. */
export function addressOf(created: Pick<MessageCreatedData, 'content'>): string | null {
  const content = created.content;
  if (content.channel_type !== 'email' && content.channel_type !== 'sms') return null;
  return bareAddress(content.to);
}

/** `Name <a@b.c>` -> `a@b.c`, lower-cased. */
export function bareAddress(to: string): string | null {
  const inner = /<([^>]+)>/.exec(to)?.[1] ?? to;
  const address = inner.trim().toLowerCase();
  return address || null;
}
