import { EngagementAction, MessageEvent, messageDecider, messageStream, MessageState } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';
import { eventIdsFor } from '../recipients/event-ids';

/**
 * Concurrent engagement on one message retries on the stream revision; many writers at once on
 * one message need more rounds than a single-writer command.
 */
const ENGAGEMENT_ATTEMPTS = 50;

export interface EngageOptions {
  metadata?: Record<string, unknown> | null;
  url?: string;
  /** Derives event ids (bulk operations, so a redone chunk appends nothing twice). */
  seed?: string;
  now?: string;
}

/** Applies one engagement action through the message decider; a mark already set appends nothing. */
export function engageMessage(
  store: EventStore,
  environment: string,
  messageId: string,
  action: EngagementAction,
  metadata: CommandMetadata,
  options: EngageOptions = {},
): Promise<CommandOutcome<MessageState, MessageEvent>> {
  const stream = messageStream(environment, messageId);
  return handleCommand(
    store,
    stream,
    messageDecider,
    { type: 'Engage', action, metadata: options.metadata ?? null, url: options.url, now: options.now ?? new Date().toISOString() },
    metadata,
    { maxAttempts: ENGAGEMENT_ATTEMPTS, eventId: eventIdsFor(options.seed, stream) },
  );
}
