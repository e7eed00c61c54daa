import http2 from 'node:http2';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, request as undiciRequest } from 'undici';
import { AddressPolicy, parseAddress } from './address-policy';
import { OutboundRefusedError } from './errors';
import { guardedLookup, systemResolver, type Resolver } from './guarded-lookup';

export interface OutboundHttpOptions {
  /** Which addresses may be called; default: public ones only. */
  policy?: AddressPolicy;
  /** How host names are resolved (tests inject one); default: the system resolver. */
  resolve?: Resolver;
  /** Milliseconds to establish a connection; default 10 s (requests also end with their signal). */
  connectTimeoutMs?: number;
}

export interface OutboundRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Redirects followed, each hop checked like the first; default 0 (a 3xx is the answer). */
  maxRedirects?: number;
  /** Bytes of the response body read; the rest is not read (`truncated`). Default 1 MiB. */
  maxBodyBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** The bytes read, as UTF-8. */
  body: string;
  /** The body was longer than `maxBodyBytes`; `body` holds its beginning. */
  truncated: boolean;
  /** Where the answer came from, after redirects. */
  url: string;
}

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * The one way this service calls out over HTTP (fetch steps, webhooks, chat webhooks, every
 * provider). Each connection goes to an address that was resolved once and checked against
 * the address policy (the connector's `lookup` does both, so DNS rebinding cannot slip a
 * second answer in); IP literals, which sockets never look up, are checked before connecting.
 * Redirects are followed by hand so every hop is checked; bodies are read up to a limit.
 */
export class OutboundHttp {
  readonly policy: AddressPolicy;
  /** For sockets made elsewhere (HTTP/2): resolves once and checks, as every connection here does. */
  readonly lookup: LookupFunction;
  private readonly agent: Agent;

  constructor(options: OutboundHttpOptions = {}) {
    this.policy = options.policy ?? AddressPolicy.publicOnly();
    this.lookup = guardedLookup(this.policy, options.resolve ?? systemResolver);
    const connector = buildConnector({ lookup: this.lookup, timeout: options.connectTimeoutMs ?? 10_000 });
    this.agent = new Agent({
      connect: (connectOptions, callback) => {
        const refused = this.literalRefusal(connectOptions.hostname);
        if (refused) return callback(refused, null);
        connector(connectOptions, callback);
      },
    });
  }

  async request(request: OutboundRequest): Promise<OutboundResponse> {
    const maxRedirects = request.maxRedirects ?? 0;
    const maxBodyBytes = request.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    let { method, body } = request;
    let headers = { ...request.headers };
    let url = this.checkedUrl(request.url);
    for (let hop = 0; ; hop++) {
      const response = await undiciRequest(url, { method: method as never, headers, body, signal: request.signal, dispatcher: this.agent });
      const location = header(response.headers, 'location');
      if (maxRedirects > 0 && REDIRECTS.has(response.statusCode) && location) {
        await response.body.dump();
        if (hop >= maxRedirects) throw new OutboundRefusedError('too_many_redirects', `more than ${maxRedirects} redirects`);
        const next = this.checkedUrl(new URL(location, url).toString());
        // 303, and 301/302 after a POST, go on as a GET without a body (what browsers do).
        if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-/i.test(k)));
        }
        // Credentials meant for one origin are not handed to another.
        if (next.origin !== url.origin)
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k.toLowerCase())));
        url = next;
        continue;
      }
      const { text, truncated } = await readLimited(response.body, maxBodyBytes);
      return { status: response.statusCode, headers: flatHeaders(response.headers), body: text, truncated, url: url.toString() };
    }
  }

  /**
   * An HTTP/2 session to `origin` whose connection passes the same checks. Throws
   * OutboundRefusedError at once for a refused IP literal or scheme.
   */
  connectHttp2(origin: string): http2.ClientHttp2Session {
    const url = this.checkedUrl(origin);
    const refused = this.literalRefusal(url.hostname);
    if (refused) throw refused;
    return http2.connect(url.origin, { lookup: this.lookup });
  }

  /** Closes kept-alive connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private checkedUrl(text: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new OutboundRefusedError('invalid_url', `not a URL: ${text}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefusedError('unsupported_scheme', `only http and https URLs are called, not ${url.protocol.slice(0, -1)}`);
    return url;
  }

  private literalRefusal(hostname: string): OutboundRefusedError | undefined {
    const bare = hostname.replace(/^\[|\]$/g, '');
    if (!parseAddress(bare)) return undefined;
    const decision = this.policy.check(bare);
    return decision.allowed ? undefined : OutboundRefusedError.address(bare, bare, decision.addressClass);
  }
}

async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): void },
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v!]),
  );
}
