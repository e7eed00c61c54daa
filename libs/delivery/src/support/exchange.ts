import { performance } from 'node:perf_hooks';
import type { DeliveryFailure, DeliveryLogEntry, DeliveryResult, DeliverySuccess, DeliveryTargetResult, ProviderConfig } from '../types';
import { isRetryableStatus, parseRetryAfter } from './classify';
import { Redactor } from './redactor';

export const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_LOGGED_TEXT = 64 * 1024;

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
  | { kind: 'error'; code: 'timeout' | 'aborted' | 'network_error'; reason: string };

export type FailureInit = Omit<DeliveryFailure, 'outcome' | 'logs'>;

/**
 * One `send()` call: its deadline, its log of exchanges and the redactor that every log entry
 * passes through before it leaves the library.
 */
export class Exchange {
  private readonly logs: DeliveryLogEntry[] = [];
  readonly timeoutMs: number;

  constructor(
    readonly redactor: Redactor,
    config: Pick<ProviderConfig, 'timeoutMs' | 'settings'>,
    private readonly signal?: AbortSignal,
  ) {
    const fromSettings = config.settings.timeout_ms;
    this.timeoutMs = config.timeoutMs ?? (typeof fromSettings === 'number' && fromSettings > 0 ? fromSettings : DEFAULT_TIMEOUT_MS);
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

  /** Redacted when the result is built, so a secret learnt after an entry was recorded is covered too. */
  private redactedLogs(): DeliveryLogEntry[] {
    return this.logs.map((entry) => this.redactor.entry(entry));
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
      logged = truncate(request.text);
    }
    const logRequest = { method: request.method, url: request.url, headers, body: logged };
    const signal = this.deadline();
    const started = performance.now();
    try {
      const response = await fetch(request.url, { method: request.method, headers, body, signal, redirect: 'manual' });
      const responseHeaders = Object.fromEntries(response.headers.entries());
      const text = await response.text();
      const parsed = parseBody(text, responseHeaders['content-type']);
      this.record({ request: logRequest, response: { status: response.status, headers: responseHeaders, body: typeof parsed === 'string' ? truncate(parsed) : parsed }, duration_ms: elapsed(started) });
      const retryAfterMs = parseRetryAfter(responseHeaders['retry-after']);
      return { kind: 'response', status: response.status, headers: responseHeaders, body: parsed, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    } catch (error) {
      const failure = signal.aborted ? this.abortReason() : { code: 'network_error' as const, reason: describeNetworkError(error) };
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
    if (sent.length) return this.sent({ ...(sent.length === 1 && sent[0].providerMessageId ? { providerMessageId: sent[0].providerMessageId } : {}), targets, ...extra });
    const retryable = targets.some((t) => t.retryable);
    const first = targets.find((t) => t.retryable === retryable) ?? targets[0];
    return this.failed({
      retryable,
      reason: targets.length === 1 ? first.reason! : `all ${targets.length} targets failed; first: ${first.reason}`,
      code: first.code,
      ...(retryable && retryAfterMs !== undefined ? { retryAfterMs } : {}),
      targets,
      ...extra,
    });
  }
}

/** Classifies an HTTP outcome that was not a success: transport errors, 408/425/429 and 5xx are retryable. */
export function failureOf(outcome: HttpOutcome, describe: (body: unknown) => { reason?: string; code?: string } = () => ({})): FailureInit {
  if (outcome.kind === 'error') return { retryable: true, code: outcome.code, reason: outcome.reason };
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

function truncate(text: string): string {
  return text.length > MAX_LOGGED_TEXT ? `${text.slice(0, MAX_LOGGED_TEXT)}… (${text.length} characters)` : text;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
