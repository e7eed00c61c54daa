import { RecipientRefT } from '@notify/contracts';
import { EventStore } from '@notify/eventstore';
import type { ItemSchemaLookup } from '../config/item-schemas';

/** A channel usable in an environment (ChannelQueries.findUsable satisfies this). */
export interface ChannelFinder {
  findUsable(environment: string, idOrKey: { id: string }): Promise<{ id: string; type: string; provider: string } | undefined>;
}

/** Current subscriptions to an object (SubscriptionQueries satisfies this). */
export interface SubscriptionLookup {
  current(
    environment: string,
    collection: string,
    objectId: string,
    recipients: RecipientRefT[],
  ): Promise<Map<string, { properties: Record<string, unknown> | null }>>;
}

export interface RecipientDeps {
  store: EventStore;
  channels: ChannelFinder;
  subscriptions: SubscriptionLookup;
  /** Item schemas whose declared property types are enforced on writes (ADR 0192); none enforced when absent. */
  itemSchemas?: ItemSchemaLookup;
}

/**
 * Deterministic event ids for work that may be redone (a bulk item after a crash): the same
 * seed, stream and index give the same id, so the store recognises a re-append as done.
 */
export interface Idempotency {
  seed?: string;
}
