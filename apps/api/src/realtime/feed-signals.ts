import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database } from '@notify/database';
import { MessageCreatedData } from '@notify/domain';
import { SharedLogReader } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { DATABASE, LOG_READER } from '@notify/platform';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { FEED_NOTIFY_CHANNEL, FeedNotification, feedNotificationOf } from '@notify/projections/messages';
import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import { FeedSignal } from './feed-filter';

const toSignal = (n: FeedNotification): FeedSignal => ({ environment: n.e, userId: n.u, channelId: n.c, messageId: n.m, tenant: n.t, workflowKey: n.w, categories: n.k });

/**
 * New in-app messages, heard by every api instance (ADR 0077). On a Postgres server: LISTEN on
 * the channel the messages projection NOTIFYs on commit, so api and worker processes and any
 * number of api instances hear each message once it is readable. The embedded database serves
 * one process and no LISTEN: there the process's own tail of the log is read instead, and a
 * message is announced once the projections that read it have passed it.
 */
@Injectable()
export class FeedSignals implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly emitter = new EventEmitter();
  private client?: Client;
  private stopped = false;
  private stopTail?: () => void;

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

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stopTail?.();
    await this.client?.end().catch(() => undefined);
  }

  private emit(notification: FeedNotification): void {
    this.emitter.emit('signal', toSignal(notification));
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.database.url });
    client.on('notification', (n) => {
      if (n.channel !== FEED_NOTIFY_CHANNEL || !n.payload) return;
      try {
        this.emit(JSON.parse(n.payload) as FeedNotification);
      } catch (error) {
        this.logger.warn({ err: error }, 'unreadable feed notification');
      }
    });
    client.on('error', (error) => {
      // Messages announced while reconnecting are not pushed; clients still see them on their next fetch.
      this.logger.warn({ err: error }, 'feed notification connection lost; reconnecting');
      this.client = undefined;
      if (!this.stopped) setTimeout(() => void this.connect().catch((e) => this.logger.warn({ err: e }, 'feed notification reconnect failed')), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${FEED_NOTIFY_CHANNEL}`);
    this.client = client;
  }

  private tailLog(): () => void {
    let position: string | undefined;
    let running = false;
    let again = false;
    const filter = { eventTypes: ['MessageCreated'] };
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
          const page = await this.reader.readAll({ after: position, filter, maxCount: 500 });
          for (const event of page.events) {
            const note = feedNotificationOf(event.metadata.environment ?? '', event.data as MessageCreatedData);
            if (!note) continue;
            await this.runtime.waitFor(event.position, [event], 10_000);
            this.emit(note);
          }
          if (page.scannedTo > position) again = true;
          position = page.scannedTo > position ? page.scannedTo : position;
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
