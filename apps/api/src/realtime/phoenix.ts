/**
 * The Phoenix channels wire format, version 2.0.0 (JSON): every frame is the array
 * [join_ref, ref, topic, event, payload]. Only what the feed socket needs: joins, leaves,
 * heartbeats, replies, server pushes and channel errors.
 */
export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

export const PHOENIX_VSN = '2.0.0';

export const Events = {
  join: 'phx_join',
  leave: 'phx_leave',
  reply: 'phx_reply',
  error: 'phx_error',
  close: 'phx_close',
  heartbeat: 'heartbeat',
} as const;

/** The topic of socket-level messages (heartbeats). */
export const SOCKET_TOPIC = 'phoenix';

const refOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/** Parses one text frame; undefined when it is not a v2 frame. */
export function decodeFrame(text: string): Frame | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) return undefined;
  const [joinRef, ref, topic, event, payload] = parsed as unknown[];
  if (typeof topic !== 'string' || typeof event !== 'string') return undefined;
  return { joinRef: refOrNull(joinRef), ref: refOrNull(ref), topic, event, payload: payload ?? {} };
}

export function encodeFrame(frame: Frame): string {
  return JSON.stringify([frame.joinRef, frame.ref, frame.topic, frame.event, frame.payload]);
}

export function reply(to: Frame, status: 'ok' | 'error', response: Record<string, unknown> = {}): Frame {
  return { joinRef: to.joinRef, ref: to.ref, topic: to.topic, event: Events.reply, payload: { status, response } };
}

/** feeds:<channel_id>:<user_id>; the user id may itself contain colons. */
export function parseFeedTopic(topic: string): { channelId: string; userId: string } | undefined {
  const match = /^feeds:([^:]+):(.+)$/.exec(topic);
  return match ? { channelId: match[1], userId: match[2] } : undefined;
}
