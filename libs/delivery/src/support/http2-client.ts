import http2 from 'node:http2';
import { performance } from 'node:perf_hooks';
import { MAX_READ_BYTES, type Exchange, type HttpOutcome } from './exchange';
import { parseRetryAfter } from './classify';

/**
 * An HTTP/2 session to one origin for the duration of one delivery (`https:` with TLS, `http:`
 * as cleartext h2c, which local test peers use). Requests share the session; every one is
 * logged through the exchange.
 */
export class Http2Session {
  private readonly session: http2.ClientHttp2Session | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly origin: string,
    private readonly exchange: Exchange,
  ) {
    try {
      // Through the outbound client: the origin's address is checked like every other call's.
      this.session = exchange.outbound.connectHttp2(origin);
    } catch (error) {
      this.failure = error as Error;
      return;
    }
    // Without a listener a connection error would crash the process; requests see it instead.
    this.session.on('error', (error) => {
      this.failure = error;
    });
  }

  async request(path: string, headers: Record<string, string>, body: unknown): Promise<HttpOutcome> {
    const payload = JSON.stringify(body);
    const logRequest = { method: 'POST', url: `${this.origin}${path}`, headers, body };
    const deadline = this.exchange.deadline();
    const started = performance.now();
    try {
      const response = await new Promise<{ status: number; headers: Record<string, string>; text: string }>((resolve, reject) => {
        if (this.failure || !this.session) return reject(this.failure);
        const stream = this.session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/json', ...headers });
        const onAbort = () => {
          stream.close(http2.constants.NGHTTP2_CANCEL);
          reject(new Error('deadline'));
        };
        if (deadline.aborted) return onAbort();
        deadline.addEventListener('abort', onAbort, { once: true });
        let status = 0;
        let responseHeaders: Record<string, string> = {};
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('response', (h) => {
          status = Number(h[':status']);
          responseHeaders = Object.fromEntries(
            Object.entries(h)
              .filter(([k]) => !k.startsWith(':'))
              .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
          );
        });
        stream.on('data', (chunk: Buffer) => {
          // An answer past the read limit is cut there; APNs answers in a few bytes.
          if (size >= MAX_READ_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_READ_BYTES - size));
          size += chunk.length;
          if (size >= MAX_READ_BYTES) stream.close(http2.constants.NGHTTP2_CANCEL);
        });
        const finish = () => {
          deadline.removeEventListener('abort', onAbort);
          resolve({ status, headers: responseHeaders, text: Buffer.concat(chunks).toString('utf8') });
        };
        stream.on('end', finish);
        // A stream cut at the read limit closes without an end; an error or the deadline settles first otherwise.
        stream.on('close', () => (status ? finish() : undefined));
        stream.on('error', (error) => {
          deadline.removeEventListener('abort', onAbort);
          reject(this.failure ?? error);
        });
        stream.end(payload);
      });
      const parsed = parseJson(response.text);
      this.exchange.record({
        request: logRequest,
        response: { status: response.status, headers: response.headers, body: parsed },
        duration_ms: Math.round(performance.now() - started),
      });
      const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      return {
        kind: 'response',
        status: response.status,
        headers: response.headers,
        body: parsed,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    } catch (error) {
      const cause = this.failure ?? error;
      const transport = this.exchange.transportFailure(cause, deadline);
      const failure = transport.code === 'network_error' ? { ...transport, reason: describe(cause) } : transport;
      this.exchange.record({
        request: logRequest,
        error: `${failure.code}: ${failure.reason}`,
        duration_ms: Math.round(performance.now() - started),
      });
      return { kind: 'error', ...failure };
    }
  }

  close(): void {
    const session = this.session;
    if (!session) return;
    if (!session.closed && !session.destroyed) session.close();
    // A session whose peer never answers would hold the process open; give it a moment, then drop it.
    setTimeout(() => session.destroy(), 1000).unref();
  }
}

/** A stream cancelled because its session failed carries the session's error (ECONNREFUSED, ...) as its cause. */
function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const root = e.code === 'ERR_HTTP2_STREAM_CANCEL' && e.cause ? e.cause : e;
  return root.code ? `${root.code}${root.message && !root.message.startsWith(root.code) ? ` (${root.message})` : ''}` : root.message;
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
