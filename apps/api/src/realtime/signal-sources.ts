import { Database } from '@notify/database';
import { LogReader, Sleeper } from '@notify/eventstore';
import { Logger } from '@notify/logging';
import { Client } from 'pg';

/**
 * One LISTEN connection that comes back: when it is lost it is opened again after
 * `reconnectDelayMs` (and again after each failed try) until it works or it is stopped. The
 * real-time signals (feed messages, guide changes) hear their projection's NOTIFYs through it.
 */
export class ChannelListener {
  /** How long to wait before listening again after the connection was lost (and between tries). */
  reconnectDelayMs = 1000;
  private client?: Client;
  private stopped = false;
  private readonly reconnectWait = new Sleeper();

  constructor(
    private readonly options: {
      database: Database;
      channel: string;
      /** Names the connection (`application_name`) and the log lines. */
      name: string;
      logger: Logger;
      onNotification: (payload: string) => void;
      /** Once listening, before the first notification of a new connection is handled; `again` after a loss. */
      onListening?: (again: boolean) => Promise<void>;
    },
  ) {}

  /** Whether the connection is up (false from the moment it is found lost). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  start(): Promise<void> {
    return this.connect(false);
  }

  /** Ends a wait before reconnecting now (a test that held the reconnect back; shutdown). */
  reconnectNow(): void {
    this.reconnectWait.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.reconnectWait.wake();
    await this.client?.end().catch(() => undefined);
  }

  private async connect(again: boolean): Promise<void> {
    const { database, channel, name, logger } = this.options;
    const client = new Client({ connectionString: database.url, application_name: name });
    client.on('notification', (n) => {
      if (n.channel !== channel || !n.payload) return;
      try {
        this.options.onNotification(n.payload);
      } catch (error) {
        logger.warn({ err: error }, `unreadable notification on ${channel}`);
      }
    });
    let lost = false;
    client.on('error', (error) => {
      if (lost) return;
      lost = true;
      logger.warn({ err: error }, `${name}: notification connection lost; reconnecting`);
      if (this.client === client) this.client = undefined;
      if (!this.stopped) void this.reconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    if (this.stopped) {
      // Stopped while connecting: this connection is nobody's to end later.
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    await this.options.onListening?.(again);
  }

  private async reconnect(): Promise<void> {
    while (!this.stopped) {
      await this.reconnectWait.sleep(this.reconnectDelayMs);
      if (this.stopped) return;
      try {
        await this.connect(true);
        this.options.logger.info(`${this.options.name}: listening again`);
        return;
      } catch (error) {
        this.options.logger.warn({ err: error }, `${this.options.name}: reconnect failed`);
      }
    }
  }
}

/**
 * The embedded database has no LISTEN: a signal source reads the process's own tail of the log
 * instead, one page after another from the head it saw first (or `from`), again whenever the log
 * grows. `page(after)` handles one page and answers how far it looked. Returns the stop function.
 * The console's log tail follows the log the same way (ADR 0211).
 */
export function tailLogPages(
  reader: LogReader,
  page: (after: string) => Promise<string>,
  onError: (error: unknown) => void,
  from?: string,
): () => void {
  let position: string | undefined = from;
  let running = false;
  let again = false;
  let stopped = false;
  const pump = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        position ??= await reader.headPosition();
        const scannedTo = await page(position);
        if (scannedTo > position) {
          again = true;
          position = scannedTo;
        }
      } while (again && !stopped);
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  const unlisten = reader.onAppended(() => void pump());
  void pump();
  return () => {
    stopped = true;
    unlisten();
  };
}
