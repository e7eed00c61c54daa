import { decodeFrame, encodeFrame, Events, Frame, parseFeedTopic, reply, SOCKET_TOPIC } from './phoenix';
import { FeedCountsT, FeedFilter, feedFilterOf, filterMatches, FeedSignal } from './feed-filter';

export interface FeedSubscription {
  environment: string;
  channelId: string;
  userId: string;
}

/** A `guides:<channel_id>` join: the channel as the client names it, and whose guides (the join params). */
export interface GuideJoin {
  environment: string;
  topic: string;
  channelId: string;
  userId: string;
  tenant?: string;
  data?: Record<string, unknown>;
}

export interface SessionPorts {
  send(text: string): void;
  /** Registers the session for a user's feed; returns the unsubscribe. */
  subscribe(feed: FeedSubscription, session: FeedSocketSession): () => void;
  /**
   * Registers the session for a channel's guide changes (ADR 0165); resolves to the unsubscribe,
   * or rejects with the reason the join is refused.
   */
  joinGuides?(join: GuideJoin, session: FeedSocketSession): Promise<() => void>;
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
  /** Joined (or joining) guide topics; `unsubscribe` is set once the join succeeded. */
  private readonly guideTopics = new Map<string, { joinRef: string | null; unsubscribe?: () => void }>();
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
    return [...this.topics.keys(), ...this.guideTopics.keys()];
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
        this.send(reply(frame, 'error', { reason: this.holds(frame.topic) ? 'unknown event' : 'unmatched topic' }));
    }
  }

  private join(frame: Frame): void {
    const at = this.now();
    while (this.joinTimes.length > 0 && this.joinTimes[0] <= at - this.limits.windowMs) this.joinTimes.shift();
    if (this.joinTimes.length >= this.limits.joinsPerWindow) return this.send(reply(frame, 'error', { reason: 'rate limited' }));
    this.joinTimes.push(at);
    if (!this.holds(frame.topic) && this.topics.size + this.guideTopics.size >= this.limits.maxTopics)
      return this.send(reply(frame, 'error', { reason: 'too many topics' }));
    if (frame.topic.startsWith('guides:')) return this.joinGuides(frame);
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

  private holds(topic: string): boolean {
    return this.topics.has(topic) || this.guideTopics.has(topic);
  }

  /**
   * `guides:<channel_id>` with the join params the guide client sends (`user_id`, `tenant`,
   * `data`); with a user token, only the token's user. The reply waits for the channel's check.
   */
  private joinGuides(frame: Frame): void {
    const channelId = frame.topic.slice('guides:'.length);
    const p = (typeof frame.payload === 'object' && frame.payload !== null ? frame.payload : {}) as Record<string, unknown>;
    const userId = typeof p.user_id === 'string' && p.user_id !== '' ? p.user_id : this.tokenUser;
    if (!channelId || !this.ports.joinGuides) return this.send(reply(frame, 'error', { reason: 'unmatched topic' }));
    if (!userId) return this.send(reply(frame, 'error', { reason: 'user_id is required' }));
    if (this.tokenUser !== undefined && userId !== this.tokenUser) return this.send(reply(frame, 'error', { reason: 'unauthorized' }));
    let data = p.data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data) as unknown;
      } catch {
        data = undefined;
      }
    }
    const join: GuideJoin = {
      environment: this.environment,
      topic: frame.topic,
      channelId,
      userId,
      tenant: typeof p.tenant === 'string' && p.tenant !== '' ? p.tenant : undefined,
      data: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined,
    };
    // A join of a topic already joined replaces it.
    this.guideTopics.get(frame.topic)?.unsubscribe?.();
    const entry: { joinRef: string | null; unsubscribe?: () => void } = { joinRef: frame.joinRef ?? frame.ref };
    this.guideTopics.set(frame.topic, entry);
    this.ports.joinGuides(join, this).then(
      (unsubscribe) => {
        if (this.guideTopics.get(frame.topic) !== entry) return unsubscribe(); // left or rejoined meanwhile
        entry.unsubscribe = unsubscribe;
        this.send(reply(frame, 'ok'));
      },
      (error: unknown) => {
        if (this.guideTopics.get(frame.topic) === entry) this.guideTopics.delete(frame.topic);
        this.send(reply(frame, 'error', { reason: error instanceof Error ? error.message : 'join refused' }));
      },
    );
  }

  /** A guide change for a joined guide topic: the payload as the guide client reads it (`{topic, event, data}`). */
  pushGuide(topic: string, event: string, data: Record<string, unknown>): void {
    const joined = this.guideTopics.get(topic);
    if (!joined?.unsubscribe) return;
    this.send({ joinRef: joined.joinRef, ref: null, topic, event, payload: { topic, event, data } });
  }

  private leave(frame: Frame): void {
    const guide = this.guideTopics.get(frame.topic);
    if (guide) {
      guide.unsubscribe?.();
      this.guideTopics.delete(frame.topic);
      this.send(reply(frame, 'ok'));
      this.send({ joinRef: guide.joinRef, ref: guide.joinRef, topic: frame.topic, event: Events.close, payload: {} });
      return;
    }
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
    for (const joined of this.guideTopics.values()) joined.unsubscribe?.();
    this.guideTopics.clear();
  }

  private send(frame: Frame): void {
    this.ports.send(encodeFrame(frame));
  }
}
