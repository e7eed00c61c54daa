import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DomainError } from '@notify/domain';
import { GuideGroupT } from '@notify/contracts';
import { Logger, LOGGER } from '@notify/logging';
import { GuideChannel, ServedGuides } from '../guides/served-guides';
import { GuideAudience, UserGuides } from '../guides/user-guides';
import { FeedSocketSession, GuideJoin } from './feed-socket-session';
import { GuideSignal, GuideSignals } from './guide-signals';

interface GuideSubscription {
  session: FeedSocketSession;
  topic: string;
  channel: GuideChannel;
  who: GuideAudience;
  /** The channel's guide group as this client was last told (or fetched): order, unthrottled guides, interval. */
  sequence: string;
  /** The guides this client was last told (or fetched) are shown to it. */
  shown: Set<string>;
  /** Pushes for one subscription go out in the order their changes were heard. */
  queue: Promise<void>;
}

/**
 * `guides:<channel_id>` topics (ADR 0165): when a guide changes, each joined client of its
 * environment has the guide evaluated for its user, tenant and data, and is told what changed for
 * it: `guide.added` (now shown), `guide.updated` (shown, changed; or `eligible: false` when no
 * longer shown), `guide.removed` (gone from the channel).
 */
@Injectable()
export class GuideFanout implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly subscriptions = new Map<string, Set<GuideSubscription>>();
  private unlisten?: () => void;

  constructor(
    private readonly signals: GuideSignals,
    private readonly served: ServedGuides,
    private readonly guides: UserGuides,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.unlisten = this.signals.listen((signal) => this.changed(signal));
  }

  onModuleDestroy(): void {
    this.unlisten?.();
  }

  /** Subscriptions on this instance (tests, metrics). */
  get size(): number {
    let n = 0;
    for (const set of this.subscriptions.values()) n += set.size;
    return n;
  }

  async join(join: GuideJoin, session: FeedSocketSession): Promise<() => void> {
    let channel: GuideChannel;
    try {
      channel = await this.served.channel(join.environment, join.channelId);
    } catch (error) {
      if (error instanceof DomainError) throw new Error(`not an in_app_guide channel of this environment: ${join.channelId}`);
      throw error;
    }
    const who: GuideAudience = { userId: join.userId, tenant: join.tenant, data: join.data };
    const [evaluated, group] = await Promise.all([
      this.guides.evaluate(join.environment, channel, who),
      this.guides.group(join.environment, channel),
    ]);
    const sub: GuideSubscription = {
      session,
      topic: join.topic,
      channel,
      who,
      sequence: groupState(group),
      shown: new Set(evaluated.filter((g) => !g.ineligible).map((g) => g.key)),
      queue: Promise.resolve(),
    };
    let set = this.subscriptions.get(join.environment);
    if (!set) this.subscriptions.set(join.environment, (set = new Set()));
    set.add(sub);
    return () => {
      set.delete(sub);
      if (set.size === 0 && this.subscriptions.get(join.environment) === set) this.subscriptions.delete(join.environment);
    };
  }

  private changed(signal: GuideSignal): void {
    const environments = signal.environment ? [signal.environment] : [...this.subscriptions.keys()];
    for (const environment of environments) {
      // The group of each channel is read once per change, for every client of the channel.
      const groups = new Map<string, Promise<GuideGroupT | undefined>>();
      const groupOf = (channel: GuideChannel) => {
        if (!groups.has(channel.key)) groups.set(channel.key, this.guides.group(environment, channel));
        return groups.get(channel.key)!;
      };
      const users = signal.users ? new Set(signal.users) : undefined;
      for (const sub of this.subscriptions.get(environment) ?? []) {
        if (users && !users.has(sub.who.userId)) continue;
        sub.queue = sub.queue
          .then(() => this.tell(environment, sub, signal, groupOf))
          .catch((error) => this.logger.warn({ err: error, topic: sub.topic }, 'guide push failed'));
      }
    }
  }

  /**
   * Evaluates the changed guide (or every guide: after a lost connection, or when the client's
   * user changed) for one client and pushes the difference.
   */
  private async tell(
    environment: string,
    sub: GuideSubscription,
    signal: GuideSignal,
    groupOf: (channel: GuideChannel) => Promise<GuideGroupT | undefined>,
  ): Promise<void> {
    if (!signal.group) await this.tellGuides(environment, sub, signal.users ? undefined : signal.key);
    // A guide that joined or left the channel, or a new order or throttle, changes the group:
    // without it, a client would not show a guide it was just told about.
    const group = await groupOf(sub.channel);
    const state = groupState(group);
    // A channel without guides has no group: its first one comes as guide_group.added.
    if (group && state !== sub.sequence)
      sub.session.pushGuide(sub.topic, sub.sequence === groupState(undefined) ? 'guide_group.added' : 'guide_group.updated', {
        guide_group: group,
      });
    sub.sequence = state;
  }

  private async tellGuides(environment: string, sub: GuideSubscription, key: string | undefined): Promise<void> {
    const evaluated = await this.guides.evaluate(environment, sub.channel, sub.who, key === undefined ? undefined : [key]);
    const byKey = new Map(evaluated.map((g) => [g.key, g]));
    const keys = key === undefined ? new Set([...sub.shown, ...byKey.keys()]) : [key];
    for (const k of keys) {
      const now = byKey.get(k);
      if (now && !now.ineligible) {
        sub.session.pushGuide(sub.topic, sub.shown.has(k) ? 'guide.updated' : 'guide.added', { guide: now.guide, eligible: true });
        sub.shown.add(k);
      } else if (sub.shown.delete(k)) {
        if (now) sub.session.pushGuide(sub.topic, 'guide.updated', { guide: now.guide, eligible: false });
        else sub.session.pushGuide(sub.topic, 'guide.removed', { guide: { key: k } });
      }
    }
  }
}

const groupState = (group: GuideGroupT | undefined) =>
  JSON.stringify(group ? [group.display_sequence, group.display_sequence_unthrottled, group.display_interval ?? null] : []);
