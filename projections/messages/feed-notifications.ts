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

/** Postgres refuses a NOTIFY payload of 8,000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7900;

/**
 * The NOTIFY payloads of these announcements: JSON arrays of as many as fit in one payload, in
 * order (one NOTIFY per message made a fan-out's listener parse, and Postgres queue, ten thousand
 * of them; ADR 0273). An announcement too large for a payload of its own is left out.
 */
export function feedPayloads(notes: readonly FeedNotification[]): string[] {
  const payloads: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  for (const note of notes) {
    const json = JSON.stringify(note);
    const size = Buffer.byteLength(json) + 1;
    if (size + 2 > MAX_PAYLOAD_BYTES) continue;
    if (current.length && bytes + size > MAX_PAYLOAD_BYTES) {
      payloads.push(`[${current.join(',')}]`);
      current = [];
      bytes = 2;
    }
    current.push(json);
    bytes += size;
  }
  if (current.length) payloads.push(`[${current.join(',')}]`);
  return payloads;
}

/** The announcements of one payload: an array of them, or one alone (as written before ADR 0273). */
export function feedNotificationsIn(payload: string): FeedNotification[] {
  const parsed = JSON.parse(payload) as FeedNotification | FeedNotification[];
  return Array.isArray(parsed) ? parsed : [parsed];
}

/**
 * What the announcing SELECT reads, its payloads in parameter `$n`: a replay (a verifying rebuild
 * into shadow tables) announces nothing.
 */
export const FEED_ANNOUNCE_FROM = (n: number) =>
  `FROM unnest($${n}::text[]) AS p WHERE coalesce(current_setting('notify.replay', true), '') <> 'on'`;
