import { decodeFrame, encodeFrame, Events, Frame, parseFeedTopic, reply, SOCKET_TOPIC } from './phoenix';
import { FeedCountsT, FeedFilter, feedFilterOf, filterMatches, FeedSignal } from './feed-filter';

export interface FeedSubscription {
  environment: string;
  channelId: string;
  userId: string;
}

export interface SessionPorts {
  send(text: string): void;
  /** Registers the session for a user's feed; returns the unsubscribe. */
  subscribe(feed: FeedSubscription, session: FeedSocketSession): () => void;
  /** A push that could not be computed (reported as phx_error to the client). */
  failed?(error: unknown, topic: string): void;
}

/**
 * What one connection may do: how many feed topics it holds at once, and how many joins it
 * sends in a sliding window (a client rejoins after an error with a backoff of seconds; a
 * connection joining faster than this is broken or hostile). A refused join is an error reply,
 * which Phoenix clients retry with their rejoin backoff.
 */
export interface SessionLimits {
  maxTopics: number;
  joinsPerWindow: number;
  windowMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxTopics: 100, joinsPerWindow: 30, windowMs: 10_000 };

interface JoinedTopic {
  joinRef: string | null;
  feed: FeedSubscription;
  /** Each feed client that joined, by its reference id, with its options (as sent, and as a filter). */
  clients: Map<string, { params: unknown; filter: FeedFilter }>;
  unsubscribe: () => void;
}

/**
 * One websocket connection speaking Phoenix channels v2 for feed topics. The connection was
 * authenticated on upgrade (environment, and the user its token proves, if any); a join is
 * refused for another user's feed when a token was given.
 */
export class FeedSocketSession {
  private readonly topics = new Map<string, JoinedTopic>();
  /** When the joins of the current window arrived (oldest first). */
  private readonly joinTimes: number[] = [];

  constructor(
    readonly environment: string,
    /** The user the connection's token proves; undefined when the environment does not require one. */
    readonly tokenUser: string | undefined,
    private readonly ports: SessionPorts,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get joinedTopics(): string[] {
    return [...this.topics.keys()];
  }

  handle(text: string): void {
    const frame = decodeFrame(text);
    if (!frame) return; // Not a v2 frame: nothing to answer to (there is no ref).
    if (frame.topic === SOCKET_TOPIC) {
      if (frame.event === Events.heartbeat) this.send(reply(frame, 'ok'));
      else this.send(reply(frame, 'error', { reason: 'unmatched topic' }));
      return;
    }
    switch (frame.event) {
      case Events.join:
        return this.join(frame);
      case Events.leave:
        return this.leave(frame);
      default:
        // Feed topics take no messages from clients.
        this.send(reply(frame, 'error', { reason: this.topics.has(frame.topic) ? 'unknown event' : 'unmatched topic' }));
    }
  }

  private join(frame: Frame): void {
    const at = this.now();
    while (this.joinTimes.length > 0 && this.joinTimes[0] <= at - this.limits.windowMs) this.joinTimes.shift();
    if (this.joinTimes.length >= this.limits.joinsPerWindow) return this.send(reply(frame, 'error', { reason: 'rate limited' }));
    this.joinTimes.push(at);
    if (!this.topics.has(frame.topic) && this.topics.size >= this.limits.maxTopics)
      return this.send(reply(frame, 'error', { reason: 'too many topics' }));
    const feed = parseFeedTopic(frame.topic);
    if (!feed) return this.send(reply(frame, 'error', { reason: 'unmatched topic' }));
    if (this.tokenUser !== undefined && feed.userId !== this.tokenUser) return this.send(reply(frame, 'error', { reason: 'unauthorized' }));
    const clients = new Map<string, { params: unknown; filter: FeedFilter }>();
    const payload = (typeof frame.payload === 'object' && frame.payload !== null ? frame.payload : {}) as Record<string, unknown>;
    for (const [ref, params] of Object.entries(payload)) clients.set(ref, { params, filter: feedFilterOf(params) });
    // A join of a topic already joined replaces it (the client rejoins with its clients' latest options).
    this.topics.get(frame.topic)?.unsubscribe();
    const subscription = { environment: this.environment, channelId: feed.channelId, userId: feed.userId };
    this.topics.set(frame.topic, {
      joinRef: frame.joinRef ?? frame.ref,
      feed: subscription,
      clients,
      unsubscribe: this.ports.subscribe(subscription, this),
    });
    this.send(reply(frame, 'ok'));
  }

  private leave(frame: Frame): void {
    const joined = this.topics.get(frame.topic);
    if (!joined) return this.send(reply(frame, 'error', { reason: 'unmatched topic' }));
    joined.unsubscribe();
    this.topics.delete(frame.topic);
    this.send(reply(frame, 'ok'));
    this.send({ joinRef: joined.joinRef, ref: joined.joinRef, topic: frame.topic, event: Events.close, payload: {} });
  }

  /**
   * Tells the clients of a feed about a new message: `attn` lists the clients whose options show
   * it, `data` their counts. `count` computes counts for one client's options (once per distinct options).
   */
  async deliver(signal: FeedSignal, count: (feed: FeedSubscription, clientParams: unknown) => Promise<FeedCountsT>): Promise<void> {
    for (const [topic, joined] of this.topics) {
      const { feed } = joined;
      if (feed.channelId !== signal.channelId || feed.userId !== signal.userId) continue;
      const attn = [...joined.clients].filter(([, c]) => filterMatches(c.filter, signal));
      if (attn.length === 0) continue;
      const cache = new Map<string, Promise<FeedCountsT>>();
      const data: Record<string, { metadata: FeedCountsT }> = {};
      try {
        for (const [ref, client] of attn) {
          const key = JSON.stringify(client.params ?? null);
          if (!cache.has(key)) cache.set(key, count(feed, client.params));
          data[ref] = { metadata: await cache.get(key)! };
        }
      } catch (error) {
        // The channel is gone, as in Phoenix after a crash: the client rejoins and refetches its feed.
        this.ports.failed?.(error, topic);
        joined.unsubscribe();
        this.topics.delete(topic);
        this.send({ joinRef: joined.joinRef, ref: joined.joinRef, topic, event: Events.error, payload: {} });
        continue;
      }
      if (!this.topics.has(topic)) continue; // left while counting
      this.send({
        joinRef: joined.joinRef,
        ref: null,
        topic,
        event: 'new-message',
        payload: { event: 'new-message', metadata: data[attn[0][0]].metadata, data, attn: attn.map(([ref]) => ref) },
      });
    }
  }

  /** The connection closed: drop every subscription. */
  close(): void {
    for (const joined of this.topics.values()) joined.unsubscribe();
    this.topics.clear();
  }

  private send(frame: Frame): void {
    this.ports.send(encodeFrame(frame));
  }
}
