import { MessageCreatedData } from '@notify/domain';
import { EntityManager } from '@notify/projection-runtime';

/** Postgres NOTIFY channel on which api instances hear of new in-app feed messages (ADR 0077). */
export const FEED_NOTIFY_CHANNEL = 'notify_feed_messages';

/**
 * Messages created longer ago than this are not announced: a rebuild of the read model replays
 * old messages, and nobody is waiting for those in real time.
 */
export const FEED_NOTIFY_MAX_AGE_MS = 60_000;

/** The NOTIFY payload: short keys, because a payload must stay under 8000 bytes. */
export interface FeedNotification {
  /** environment */
  e: string;
  /** user id */
  u: string;
  /** channel id */
  c: string;
  /** message id */
  m: string;
  /** tenant */
  t: string | null;
  /** workflow key */
  w: string;
  /** workflow categories */
  k: string[];
  /** log position of the MessageCreated event (lets a listener that lost its connection catch up from the log) */
  p?: string;
}

/** The announcement of a new message, when it is an in-app feed message for a user. */
export function feedNotificationOf(environment: string, message: MessageCreatedData, position?: string): FeedNotification | undefined {
  if (message.channel.type !== 'in_app_feed' || message.recipient.type !== 'user') return undefined;
  return {
    e: environment,
    u: message.recipient.id,
    c: message.channel.id,
    m: message.message_id,
    t: message.tenant,
    w: message.workflow.key,
    k: message.workflow.categories,
    ...(position ? { p: position } : {}),
  };
}

/**
 * Queues the announcements in the projection's transaction: Postgres delivers them to every
 * listener when (and only if) the transaction commits, so a listener that hears one can already
 * read the message and the counts that include it.
 */
export async function announceFeedMessages(tx: EntityManager, notes: readonly FeedNotification[]): Promise<void> {
  const payloads = feedPayloads(notes);
  if (payloads.length === 0) return;
  await tx.query(`SELECT pg_notify($1, p) ${FEED_ANNOUNCE_FROM(2)}`, [FEED_NOTIFY_CHANNEL, payloads]);
}

/** The NOTIFY payloads of these announcements (one too large for a payload is left out). */
export function feedPayloads(notes: readonly FeedNotification[]): string[] {
  return notes.map((n) => JSON.stringify(n)).filter((p) => Buffer.byteLength(p) < 7900);
}

/**
 * What the announcing SELECT reads, its payloads in parameter `$n`: a replay (a verifying rebuild
 * into shadow tables) announces nothing.
 */
export const FEED_ANNOUNCE_FROM = (n: number) =>
  `FROM unnest($${n}::text[]) AS p WHERE coalesce(current_setting('notify.replay', true), '') <> 'on'`;
