import { performance } from 'node:perf_hooks';
import { OutboundHttp, refusalOf } from '@notify/outbound';
import type { DeliveryFailure, DeliveryLogEntry, DeliveryResult, DeliverySuccess, DeliveryTargetResult, ProviderConfig } from '../types';
import { isRetryableStatus, parseRetryAfter } from './classify';
import { Redactor } from './redactor';

export const DEFAULT_TIMEOUT_MS = 10_000;
/** Bytes of a request or response body a delivery log entry keeps, unless the caller says otherwise. */
export const DEFAULT_MAX_LOGGED_BODY_BYTES = 16 * 1024;
/** Bytes of a provider's answer read at all: providers answer in a few kilobytes. */
export const MAX_READ_BYTES = 1024 * 1024;

/** What a provider calls out with, and how much of each exchange its log keeps. */
export interface ProviderIo {
  /** Outbound HTTP with the deployment's address policy; default: public addresses only. */
  outbound?: OutboundHttp;
  /** Bytes of each request and response body kept in delivery logs; default 16 KiB. */
  maxLoggedBodyBytes?: number;
}

let publicOnly: OutboundHttp | undefined;

/** The client used when none is given: public addresses only (made once, on first use). */
export function defaultOutbound(): OutboundHttp {
  return (publicOnly ??= new OutboundHttp());
}

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON (content-type set unless given). */
  json?: unknown;
  /** Sent form-encoded. */
  form?: Record<string, string>;
  /** Sent as it is, with the headers given. */
  text?: string;
}

export type HttpOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: unknown; retryAfterMs?: number }
  | { kind: 'error'; code: 'timeout' | 'aborted' | 'network_error' | 'address_not_allowed' | 'invalid_url'; reason: string };

/** Refused targets fail the same way every time; transport failures may pass later. */
const PERMANENT_ERRORS = new Set(['address_not_allowed', 'invalid_url']);

export type FailureInit = Omit<DeliveryFailure, 'outcome' | 'logs'>;

/**
 * One `send()` call: its deadline, its log of exchanges and the redactor that every log entry
 * passes through before it leaves the library.
 */
export class Exchange {
  private readonly logs: DeliveryLogEntry[] = [];
  readonly timeoutMs: number;
  readonly outbound: OutboundHttp;
  private readonly maxLoggedBodyBytes: number;

  constructor(
    readonly redactor: Redactor,
    config: Pick<ProviderConfig, 'timeoutMs' | 'settings'>,
    private readonly signal?: AbortSignal,
    io: ProviderIo = {},
  ) {
    const fromSettings = config.settings.timeout_ms;
    this.timeoutMs = config.timeoutMs ?? (typeof fromSettings === 'number' && fromSettings > 0 ? fromSettings : DEFAULT_TIMEOUT_MS);
    this.outbound = io.outbound ?? defaultOutbound();
    this.maxLoggedBodyBytes = io.maxLoggedBodyBytes ?? DEFAULT_MAX_LOGGED_BODY_BYTES;
  }

  /** A signal that fires at this request's deadline or when the caller aborts. */
  deadline(): AbortSignal {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    return this.signal ? AbortSignal.any([timeout, this.signal]) : timeout;
  }

  /** Names why a request ended early: the caller's abort wins over the deadline. */
  abortReason(): { code: 'timeout' | 'aborted'; reason: string } {
    return this.signal?.aborted
      ? { code: 'aborted', reason: 'the delivery was aborted by the caller' }
      : { code: 'timeout', reason: `no response within ${this.timeoutMs} ms` };
  }

  record(entry: DeliveryLogEntry): void {
    this.logs.push(entry);
  }

  /**
   * A body as a log entry keeps it: text up to the byte limit (with a note of the full size),
   * parsed JSON as it is when its text fits, else its text cut the same way.
   */
  private loggedBody(body: unknown): unknown {
    if (typeof body === 'string') return truncate(body, this.maxLoggedBodyBytes);
    if (body === null || body === undefined) return null;
    const raw = JSON.stringify(body);
    return Buffer.byteLength(raw) > this.maxLoggedBodyBytes ? truncate(raw, this.maxLoggedBodyBytes) : body;
  }

  /** The transport failure an error stands for: a refused target, the deadline or the caller's abort, or the network. */
  transportFailure(error: unknown, signal: AbortSignal): { code: Extract<HttpOutcome, { kind: 'error' }>['code']; reason: string } {
    const refused = refusalOf(error);
    if (refused) return { code: refused.reason === 'address_not_allowed' ? 'address_not_allowed' : 'invalid_url', reason: refused.message };
    return signal.aborted ? this.abortReason() : { code: 'network_error', reason: describeNetworkError(error) };
  }

  /**
   * Redacted when the result is built, so a secret learnt after an entry was recorded is covered
   * too; bodies are cut to the log limit after redaction, so no secret is cut in half and missed.
   */
  private redactedLogs(): DeliveryLogEntry[] {
    return this.logs.map((entry) => {
      const redacted = this.redactor.entry(entry);
      return {
        ...redacted,
        request: { ...redacted.request, body: this.loggedBody(redacted.request.body) },
        ...(redacted.response ? { response: { ...redacted.response, body: this.loggedBody(redacted.response.body) } } : {}),
      };
    });
  }

  async http(request: HttpRequest): Promise<HttpOutcome> {
    const headers: Record<string, string> = { ...request.headers };
    let body: string | undefined;
    let logged: unknown = null;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      logged = request.json;
      if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
    } else if (request.form) {
      body = new URLSearchParams(request.form).toString();
      logged = request.form;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (request.text !== undefined) {
      body = request.text;
      logged = request.text;
    }
    const logRequest = { method: request.method, url: request.url, headers, body: logged };
    const signal = this.deadline();
    const started = performance.now();
    try {
      // Redirects are not followed: a provider that moves is a configuration problem to see.
      const response = await this.outbound.request({
        method: request.method,
        url: request.url,
        headers,
        body,
        signal,
        maxBodyBytes: MAX_READ_BYTES,
      });
      // A body cut at the read limit is not JSON any more: it is kept as text.
      const parsed = response.truncated ? response.body : parseBody(response.body, response.headers['content-type']);
      this.record({
        request: logRequest,
        response: { status: response.status, headers: response.headers, body: parsed },
        duration_ms: elapsed(started),
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
      const failure = this.transportFailure(error, signal);
      this.record({ request: logRequest, error: `${failure.code}: ${failure.reason}`, duration_ms: elapsed(started) });
      return { kind: 'error', ...failure };
    }
  }

  sent(init: Omit<DeliverySuccess, 'outcome' | 'logs'> = {}): DeliveryResult {
    return { outcome: 'sent', ...init, logs: this.redactedLogs() };
  }

  delivered(init: Omit<DeliverySuccess, 'outcome' | 'logs'> = {}): DeliveryResult {
    return { outcome: 'delivered', ...init, logs: this.redactedLogs() };
  }

  failed(init: FailureInit): DeliveryResult {
    return { outcome: 'failed', ...init, reason: this.redactor.text(init.reason), logs: this.redactedLogs() };
  }

  /** A failure read from an HTTP outcome that was not a success. */
  failedFrom(outcome: HttpOutcome, describe: (body: unknown) => { reason?: string; code?: string } = () => ({})): DeliveryResult {
    return this.failed(failureOf(outcome, describe));
  }

  /**
   * The result of a message fanned out to several targets: sent when any target got it (the
   * others are listed), otherwise failed, and retryable only if some target's failure was.
   */
  fannedOut(results: DeliveryTargetResult[], invalidTokens: string[] = [], retryAfterMs?: number): DeliveryResult {
    const targets = results.map((t) => (t.reason ? { ...t, reason: this.redactor.text(t.reason) } : t));
    const extra = invalidTokens.length ? { invalidTokens } : {};
    const sent = targets.filter((t) => t.outcome === 'sent');
    if (sent.length)
      return this.sent({
        ...(sent.length === 1 && sent[0].providerMessageId ? { providerMessageId: sent[0].providerMessageId } : {}),
        targets,
        ...extra,
      });
    const retryable = targets.some((t) => t.retryable);
    const first = targets.find((t) => t.retryable === retryable) ?? targets[0];
    return this.failed({
      retryable,
      reason: targets.length === 1 ? first.reason! : `all ${targets.length} targets failed; first: ${first.reason}`,
      code: first.code,
      ...(retryable && retryAfterMs !== undefined ? { retryAfterMs } : {}),
      // Every device token was reported gone: the push bounced (the tokens leave the channel data).
      ...(!retryable && invalidTokens.length > 0 && invalidTokens.length === targets.length ? { bounced: true } : {}),
      targets,
      ...extra,
    });
  }
}

/** Classifies an HTTP outcome that was not a success: transport errors, 408/425/429 and 5xx are retryable. */
export function failureOf(outcome: HttpOutcome, describe: (body: unknown) => { reason?: string; code?: string } = () => ({})): FailureInit {
  if (outcome.kind === 'error') return { retryable: !PERMANENT_ERRORS.has(outcome.code), code: outcome.code, reason: outcome.reason };
  const detail = describe(outcome.body);
  return {
    retryable: isRetryableStatus(outcome.status),
    code: detail.code ?? `http_${outcome.status}`,
    reason: `HTTP ${outcome.status}${detail.reason ? `: ${detail.reason}` : ''}`,
    ...(outcome.retryAfterMs !== undefined ? { retryAfterMs: outcome.retryAfterMs } : {}),
  };
}

export function isSuccess(outcome: HttpOutcome): outcome is Extract<HttpOutcome, { kind: 'response' }> {
  return outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return null;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function truncate(text: string, maxBytes: number): string {
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return text;
  // Cut on a character boundary: a partial UTF-8 sequence at the end decodes to U+FFFD, dropped.
  const kept = Buffer.from(text)
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${kept}… (${bytes} bytes, cut to ${maxBytes})`;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
