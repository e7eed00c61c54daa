import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database } from '@notify/database';
import { MessageCreatedData } from '@notify/domain';
import { SharedLogReader, Sleeper } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { DATABASE, LOG_READER } from '@notify/platform';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { FEED_NOTIFY_CHANNEL, FEED_NOTIFY_MAX_AGE_MS, FeedNotification, feedNotificationOf } from '@notify/projections/messages';
import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import { FeedSignal } from './feed-filter';

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
  private client?: Client;
  private stopped = false;
  private stopTail?: () => void;
  /** Everything after this position was heard (or caught up with) on the current connection. */
  private heardFrom?: string;
  private readonly announced = new Set<string>();
  private readonly reconnectWait = new Sleeper();
  /** How long to wait before listening again after the connection was lost (and between tries). */
  reconnectDelayMs = 1000;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(LOG_READER) private readonly reader: SharedLogReader,
    private readonly runtime: ProjectionRuntime,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  listen(listener: (signal: FeedSignal) => void): () => void {
    this.emitter.on('signal', listener);
    return () => this.emitter.off('signal', listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.database.supportsNotify) await this.connect();
    else this.stopTail = this.tailLog();
  }

  /** Whether the LISTEN connection is up (false from the moment it is found lost). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Ends a wait before reconnecting now (a test that held the reconnect back; shutdown). */
  reconnectNow(): void {
    this.reconnectWait.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.reconnectWait.wake();
    this.stopTail?.();
    await this.client?.end().catch(() => undefined);
  }

  private emit(notification: FeedNotification): void {
    if (this.announced.has(notification.m)) return;
    this.announced.add(notification.m);
    if (this.announced.size > REMEMBERED) this.announced.delete(this.announced.values().next().value!);
    this.emitter.emit('signal', toSignal(notification));
  }

  /**
   * LISTENs; after a lost connection (`catchUpFrom` set), first announces what the log holds from
   * that position up to what is readable now, as the tail of the embedded mode does.
   */
  private async connect(catchUpFrom?: string): Promise<void> {
    const client = new Client({ connectionString: this.database.url, application_name: 'notify-feed-signals' });
    client.on('notification', (n) => {
      if (n.channel !== FEED_NOTIFY_CHANNEL || !n.payload) return;
      try {
        const note = JSON.parse(n.payload) as FeedNotification;
        if (note.p && (!this.heardFrom || note.p > this.heardFrom)) this.heardFrom = note.p;
        this.emit(note);
      } catch (error) {
        this.logger.warn({ err: error }, 'unreadable feed notification');
      }
    });
    let lost = false;
    client.on('error', (error) => {
      if (lost) return;
      lost = true;
      this.logger.warn({ err: error }, 'feed notification connection lost; reconnecting');
      if (this.client === client) this.client = undefined;
      if (!this.stopped) void this.reconnect(this.heardFrom);
    });
    await client.connect();
    await client.query(`LISTEN ${FEED_NOTIFY_CHANNEL}`);
    if (this.stopped) {
      // Shut down while connecting: this connection is nobody's to end later.
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // Committed from here on is heard live; up to here, read from the log.
    const head = await this.reader.headPosition();
    if (catchUpFrom !== undefined) await this.catchUp(catchUpFrom, head);
    if (!this.heardFrom || head > this.heardFrom) this.heardFrom = head;
  }

  /** Listens again after a wait, and again after each failed try, until it works or the app stops. */
  private async reconnect(from: string | undefined): Promise<void> {
    while (!this.stopped) {
      await this.reconnectWait.sleep(this.reconnectDelayMs);
      if (this.stopped) return;
      try {
        await this.connect(from);
        if (from !== undefined) this.logger.info({ from }, 'feed notifications listened to again; caught up from the log');
        return;
      } catch (error) {
        this.logger.warn({ err: error }, 'feed notification reconnect failed');
      }
    }
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

  private tailLog(): () => void {
    let position: string | undefined;
    let running = false;
    let again = false;
    const pump = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          position ??= await this.reader.headPosition();
          const scannedTo = await this.announcePage(position);
          if (scannedTo > position) {
            again = true;
            position = scannedTo;
          }
        } while (again && !this.stopped);
      } catch (error) {
        this.logger.warn({ err: error }, 'feed signal tail failed');
      } finally {
        running = false;
      }
    };
    const unlisten = this.reader.onAppended(() => void pump());
    void pump();
    return unlisten;
  }
}
