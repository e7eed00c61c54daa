import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database } from '@notify/database';
import { MessageCreatedData } from '@notify/domain';
import { SharedLogReader } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { DATABASE, LOG_READER } from '@notify/platform';
import { ProjectionRuntime } from '@notify/projection-runtime';
import {
  FEED_NOTIFY_CHANNEL,
  FEED_NOTIFY_MAX_AGE_MS,
  FeedNotification,
  feedNotificationOf,
  feedNotificationsIn,
} from '@notify/projections/messages';
import { EventEmitter } from 'node:events';
import { FeedSignal } from './feed-filter';
import { ChannelListener, tailLogPages } from './signal-sources';

const toSignal = (n: FeedNotification): FeedSignal => ({
  environment: n.e,
  userId: n.u,
  channelId: n.c,
  messageId: n.m,
  tenant: n.t,
  workflowKey: n.w,
  categories: n.k,
});

/** How many announced message ids are remembered, so a catch-up never announces one twice. */
const REMEMBERED = 10_000;

/**
 * New in-app messages, heard by every api instance (ADR 0077). On a Postgres server: LISTEN on
 * the channel the messages projection NOTIFYs on commit, so api and worker processes and any
 * number of api instances hear each message once it is readable. When the LISTEN connection is
 * lost, what was announced meanwhile is read from the log once it is back (from the position of
 * the last announcement heard). The embedded database serves one process and no LISTEN: there
 * the process's own tail of the log is read instead, and a message is announced once the
 * projections that read it have passed it.
 */
@Injectable()
export class FeedSignals implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly emitter = new EventEmitter();
  private readonly listener: ChannelListener;
  private stopped = false;
  private stopTail?: () => void;
  /** Everything after this position was heard (or caught up with) on the current connection. */
  private heardFrom?: string;
  private readonly announced = new Set<string>();

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(LOG_READER) private readonly reader: SharedLogReader,
    private readonly runtime: ProjectionRuntime,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.emitter.setMaxListeners(0);
    this.listener = new ChannelListener({
      database,
      channel: FEED_NOTIFY_CHANNEL,
      name: 'notify-feed-signals',
      logger,
      onNotification: (payload) => {
        for (const note of feedNotificationsIn(payload)) {
          if (note.p && (!this.heardFrom || note.p > this.heardFrom)) this.heardFrom = note.p;
          this.emit(note);
        }
      },
      // Committed from here on is heard live; up to here, read from the log: after a lost
      // connection, what was announced meanwhile (from the last announcement heard).
      onListening: async (again) => {
        const head = await this.reader.headPosition();
        if (again && this.heardFrom !== undefined) {
          const from = this.heardFrom;
          await this.catchUp(from, head);
          this.logger.info({ from }, 'feed notifications listened to again; caught up from the log');
        }
        if (!this.heardFrom || head > this.heardFrom) this.heardFrom = head;
      },
    });
  }

  /** How long to wait before listening again after the connection was lost (and between tries). */
  get reconnectDelayMs(): number {
    return this.listener.reconnectDelayMs;
  }

  set reconnectDelayMs(ms: number) {
    this.listener.reconnectDelayMs = ms;
  }

  listen(listener: (signal: FeedSignal) => void): () => void {
    this.emitter.on('signal', listener);
    return () => this.emitter.off('signal', listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.database.supportsNotify) await this.listener.start();
    else
      this.stopTail = tailLogPages(
        this.reader,
        (after) => this.announcePage(after),
        (error) => this.logger.warn({ err: error }, 'feed signal tail failed'),
      );
  }

  /** Whether the LISTEN connection is up (false from the moment it is found lost). */
  get listening(): boolean {
    return this.listener.listening;
  }

  /** Ends a wait before reconnecting now (a test that held the reconnect back; shutdown). */
  reconnectNow(): void {
    this.listener.reconnectNow();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stopTail?.();
    await this.listener.stop();
  }

  private emit(notification: FeedNotification): void {
    if (this.announced.has(notification.m)) return;
    this.announced.add(notification.m);
    if (this.announced.size > REMEMBERED) this.announced.delete(this.announced.values().next().value!);
    this.emitter.emit('signal', toSignal(notification));
  }

  /** Announces the in-app messages created in (from, to]. */
  private async catchUp(from: string, to: string): Promise<void> {
    let position = from;
    while (position < to && !this.stopped) {
      const scannedTo = await this.announcePage(position);
      if (scannedTo <= position) break;
      position = scannedTo;
    }
  }

  /**
   * Reads one page of MessageCreated events after `after` and announces the in-app messages among
   * them once the projections have passed them (recent ones only, as the projection does).
   * Answers how far the page looked.
   */
  private async announcePage(after: string): Promise<string> {
    const recentSince = Date.now() - FEED_NOTIFY_MAX_AGE_MS;
    const page = await this.reader.readAll({ after, filter: { eventTypes: ['MessageCreated'] }, maxCount: 500 });
    for (const event of page.events) {
      if (event.createdAt.getTime() < recentSince) continue;
      const note = feedNotificationOf(event.metadata.environment ?? '', event.data as MessageCreatedData);
      if (!note) continue;
      await this.runtime.waitFor(event.position, [event], 10_000);
      this.emit(note);
    }
    return page.scannedTo;
  }
}
