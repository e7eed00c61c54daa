import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/** A request as a local peer received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface PeerResponse {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
}

/** `hang` keeps the request open without answering, until the peer closes; a promise is awaited (a check that signs, say). */
export type Responder = (request: RecordedRequest) => PeerResponse | 'hang' | Promise<PeerResponse | 'hang'>;

export interface Peer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  respond: Responder;
  close(): Promise<void>;
}

export const json = (body: RecordedRequest) => JSON.parse(body.body) as any;
export const form = (body: RecordedRequest) => Object.fromEntries(new URLSearchParams(body.body));

function flatten(headers: http.IncomingHttpHeaders | http2.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([k, v]) => v !== undefined && !k.startsWith(':'))
      .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
  );
}

function payloadOf(response: PeerResponse): { headers: Record<string, string>; body: string } {
  if (response.json !== undefined)
    return { headers: { 'content-type': 'application/json; charset=utf-8', ...response.headers }, body: JSON.stringify(response.json) };
  return { headers: { 'content-type': 'text/plain; charset=utf-8', ...response.headers }, body: response.text ?? '' };
}

/**
 * An HTTP/1.1 server on 127.0.0.1 (or another loopback address and a chosen port) that records
 * every request and answers as `respond` says.
 */
export async function startHttpPeer(respond: Responder, listen: { host?: string; port?: number } = {}): Promise<Peer> {
  const host = listen.host ?? '127.0.0.1';
  const peer = { requests: [] as RecordedRequest[], respond };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const recorded = { method: req.method!, url: req.url!, headers: flatten(req.headers), body: Buffer.concat(chunks).toString('utf8') };
      peer.requests.push(recorded);
      const answer = await peer.respond(recorded);
      if (answer === 'hang' || res.destroyed) return;
      const { headers, body } = payloadOf(answer);
      res.writeHead(answer.status, headers).end(body);
    });
  });
  // Idle keep-alive connections stay open until close(): a server that closes one after its 5 s
  // default can do so just as the client reuses it, and on a loaded machine that happens; the call
  // then fails before it is recorded here (the service retries it, but the test counts calls).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, host, resolve);
  });
  return Object.assign(peer, {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The same over cleartext HTTP/2 (h2c), as APNs speaks HTTP/2 only. */
export async function startHttp2Peer(respond: Responder): Promise<Peer> {
  const peer = { requests: [] as RecordedRequest[], respond };
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', async () => {
      const recorded = {
        method: String(headers[':method']),
        url: String(headers[':path']),
        headers: flatten(headers),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      peer.requests.push(recorded);
      const answer = await peer.respond(recorded);
      if (answer === 'hang' || stream.destroyed) return;
      const { headers: responseHeaders, body } = payloadOf(answer);
      stream.respond({ ':status': answer.status, ...responseHeaders });
      stream.end(body);
    });
    stream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(peer, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const session of sessions) session.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

export interface ReceivedMail {
  envelope: SMTPServerSession['envelope'];
  user: string | undefined;
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpPeer {
  port: number;
  messages: ReceivedMail[];
  /** SMTP reply to give at RCPT TO for an address, e.g. 550 or 451; undefined accepts. */
  rejectRecipient: (address: string) => { code: number; message: string } | undefined;
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) that requires the given login and keeps what it receives. */
export async function startSmtpPeer(credentials: { user: string; pass: string }): Promise<SmtpPeer> {
  const peer = { messages: [] as ReceivedMail[], rejectRecipient: (() => undefined) as SmtpPeer['rejectRecipient'] };
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const rejection = peer.rejectRecipient(address.address);
      if (rejection) return callback(Object.assign(new Error(rejection.message), { responseCode: rejection.code }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            peer.messages.push({ envelope: session.envelope, user: session.user, raw, parsed });
            callback();
          },
          (error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The same object, so that a test's later `rejectRecipient = ...` reaches the callbacks above.
  return Object.assign(peer, {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A TCP server that accepts connections and never says a word (an SMTP server that hangs). */
export async function startSilentTcpPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 with nobody listening (connection refused). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The secrets that appear anywhere in `value` once serialised; a test expects none. */
export function leakedSecrets(value: unknown, secrets: string[]): string[] {
  const text = JSON.stringify(value);
  return secrets.filter((secret) => text.includes(secret));
}
