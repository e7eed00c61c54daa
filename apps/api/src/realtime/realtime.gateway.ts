import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DomainError } from '@notify/domain';
import { Authenticator, errorBody, missingKey } from '@notify/http';
import { Logger, LOGGER } from '@notify/logging';
import { IncomingMessage, Server, STATUS_CODES } from 'node:http';
import { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { FeedCounts } from './feed-counts';
import { FeedSignal } from './feed-filter';
import { FeedSignals } from './feed-signals';
import { FeedSocketSession, FeedSubscription } from './feed-socket-session';
import { GuideFanout } from './guide-fanout';
import { PHOENIX_VSN } from './phoenix';

export const WEBSOCKET_PATH = '/ws/v1/websocket';
/** Phoenix clients send a heartbeat every 30 s; a connection silent for longer than this is gone. */
const IDLE_TIMEOUT_MS = 75_000;
/** Close code when the connection's user token expires; the client reconnects with a fresh one. */
export const TOKEN_EXPIRED_CLOSE = 4001;
const MAX_TIMER_MS = 2_147_483_647;

interface Identity {
  environment: string;
  tokenUser?: string;
  expiresAt?: number;
}

const feedKey = (f: { environment: string; channelId: string; userId: string }) => `${f.environment}\u0000${f.channelId}\u0000${f.userId}`;

/**
 * The realtime feed socket (ADR 0078): `ws` on the api's own HTTP server, taking the upgrade of
 * /ws/v1/websocket only. Credentials come in the query string as the Knock client sends them
 * (api_key, user_token) and are checked before the upgrade is accepted, with the same rules as
 * HTTP routes; a refusal is an HTTP error in the API's error shape.
 */
@Injectable()
export class RealtimeGateway implements OnApplicationBootstrap, OnModuleDestroy {
  private wss?: WebSocketServer;
  private readonly feeds = new Map<string, Set<FeedSocketSession>>();
  private readonly lastSeen = new Map<WebSocket, number>();
  private sweep?: NodeJS.Timeout;
  private unlisten?: () => void;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly auth: Authenticator,
    private readonly signals: FeedSignals,
    private readonly counts: FeedCounts,
    private readonly guideFanout: GuideFanout,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return; // no HTTP server in this context (CLI)
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(request, socket, head));
    this.unlisten = this.signals.listen((signal) => this.announce(signal));
    this.sweep = setInterval(() => {
      const cutoff = Date.now() - IDLE_TIMEOUT_MS;
      for (const [ws, seen] of this.lastSeen) if (seen < cutoff) ws.terminate();
    }, 15_000);
    this.sweep.unref();
  }

  onModuleDestroy(): void {
    this.unlisten?.();
    if (this.sweep) clearInterval(this.sweep);
    for (const ws of this.lastSeen.keys()) ws.terminate();
    this.wss?.close();
  }

  /** Open connections on this instance (metrics, tests). */
  get connections(): number {
    return this.lastSeen.size;
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // A client that goes away while its credentials are checked must not take the process down.
    socket.on('error', () => socket.destroy());
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname.replace(/\/+$/, '') !== WEBSOCKET_PATH)
      return refuse(socket, new DomainError('not_found', 'No websocket endpoint at this path', 'not_found'));
    let identity: Identity;
    try {
      identity = await this.authenticate(url.searchParams);
    } catch (error) {
      if (error instanceof DomainError) return refuse(socket, error);
      this.logger.error({ err: error }, 'websocket authentication failed');
      return refuse(socket, new DomainError('unavailable', 'Authentication is unavailable', 'unavailable'));
    }
    this.wss!.handleUpgrade(request, socket, head, (ws) => this.connected(ws, identity));
  }

  private async authenticate(query: URLSearchParams): Promise<Identity> {
    const vsn = query.get('vsn');
    if (vsn !== null && vsn !== PHOENIX_VSN)
      throw new DomainError('unsupported_protocol_version', `Only the Phoenix ${PHOENIX_VSN} serializer is spoken here`, 'invalid_request');
    const apiKey = query.get('api_key');
    if (!apiKey) throw missingKey();
    const key = await this.auth.apiKey(apiKey);
    if (!key) throw missingKey();
    if (key.kind === 'secret') return { environment: key.environment };
    const token = query.get('user_token');
    const proven = await this.auth.tokenIdentity(key, token === null || token === '' ? undefined : token);
    return { environment: key.environment, tokenUser: proven?.userId, expiresAt: proven?.expiresAt };
  }

  private connected(ws: WebSocket, identity: Identity): void {
    this.lastSeen.set(ws, Date.now());
    // A token's authority ends at its expiry, also for a connection opened before.
    const untilExpiry = identity.expiresAt === undefined ? undefined : identity.expiresAt - Date.now();
    const expiry =
      untilExpiry !== undefined && untilExpiry <= MAX_TIMER_MS
        ? setTimeout(() => ws.close(TOKEN_EXPIRED_CLOSE, 'user token expired'), Math.max(0, untilExpiry))
        : undefined;
    const session = new FeedSocketSession(identity.environment, identity.tokenUser, {
      send: (text) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(text);
      },
      subscribe: (feed, s) => this.subscribe(feed, s),
      joinGuides: (join, s) => this.guideFanout.join(join, s),
      failed: (error, topic) => this.logger.warn({ err: error, topic }, 'feed push could not be computed; channel error sent'),
    });
    ws.on('message', (data, isBinary) => {
      this.lastSeen.set(ws, Date.now());
      if (isBinary) return; // the JSON serializer only
      session.handle(data.toString());
    });
    const gone = () => {
      if (expiry) clearTimeout(expiry);
      this.lastSeen.delete(ws);
      session.close();
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  private subscribe(feed: FeedSubscription, session: FeedSocketSession): () => void {
    const key = feedKey(feed);
    let sessions = this.feeds.get(key);
    if (!sessions) this.feeds.set(key, (sessions = new Set()));
    sessions.add(session);
    return () => {
      sessions.delete(session);
      if (sessions.size === 0 && this.feeds.get(key) === sessions) this.feeds.delete(key);
    };
  }

  private announce(signal: FeedSignal): void {
    const sessions = this.feeds.get(feedKey(signal));
    this.logger.debug(
      {
        environment: signal.environment,
        user: signal.userId,
        channel: signal.channelId,
        message: signal.messageId,
        sockets: sessions?.size ?? 0,
      },
      'new feed message',
    );
    if (!sessions) return;
    for (const session of sessions) {
      session
        .deliver(signal, (feed, params) => this.counts.count(feed, params))
        .catch((error) => this.logger.warn({ err: error }, 'feed push failed'));
    }
  }
}

/** Answers a refused upgrade with a plain HTTP response in the API's error shape. */
function refuse(socket: Duplex, error: DomainError): void {
  const { status, body } = errorBody(error);
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}
