import { fetchRetryable, fetchRetryDelayMs, fetchUrlProblem, parseRetryAfter } from '@notify/domain';
import { refusalOf } from '@notify/outbound';
import type { StepContext, StepHandler, StepOutcome } from '../step-handler';

type KeyValues = string | { key: string; value: string }[] | undefined;

interface RequestTemplateDef {
  url: string;
  method?: 'get' | 'post' | 'put' | 'delete' | 'patch';
  body?: string | null;
  headers?: KeyValues;
  query_params?: KeyValues;
}

interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

type Attempt =
  | { kind: 'response'; status: number; body: string; retryAfter: string | null }
  | { kind: 'network'; error: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'invalid'; status: number; reason: string };

const MAX_REDIRECTS = 5;
const MAX_RESPONSE_BYTES = 1_048_576;
const DEFAULTS = { timeoutMs: 15_000, retryBaseMs: 5_000, retryMaxMs: 300_000 };

/**
 * Calls an HTTP endpoint with a Liquid request template and merges the JSON object it answers
 * into the run's data (top-level keys replace those of the trigger data), for later steps.
 * Network errors, timeouts, 429 and 5xx are tried again after an exponential backoff, as a
 * durable pause; other answers, exhausted attempts and refused targets end the run with the
 * step's error, since later steps would render without the data they expect. The call goes
 * through the shared outbound client: targets at non-public addresses are refused unless
 * OUTBOUND_ALLOWED_ADDRESSES lists them, and every redirect hop is checked the same way.
 */
export class HttpFetchStep implements StepHandler {
  readonly type = 'http_fetch';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const template = (ctx.step.settings ?? {}) as unknown as RequestTemplateDef;
    const prepared = await this.prepare(ctx, template);
    if ('error' in prepared) return fail(prepared.error, ctx.attempt + 1);

    const attemptNumber = ctx.attempt + 1;
    const settings = {
      ...DEFAULTS,
      ...definedOnly({
        timeoutMs: ctx.deps.settings.fetchTimeoutMs,
        retryBaseMs: ctx.deps.settings.fetchRetryBaseMs,
        retryMaxMs: ctx.deps.settings.fetchRetryMaxMs,
      }),
    };
    const result = await this.call(ctx, prepared, settings.timeoutMs);
    const summary = { method: prepared.method, url: withoutQuery(prepared.url), attempts: attemptNumber };

    if (result.kind === 'refused') return fail(`fetch_refused: ${result.reason}`, attemptNumber, summary);
    if (result.kind === 'invalid')
      return fail(`fetch_invalid_response: ${result.reason}`, attemptNumber, { ...summary, status_code: result.status });
    if (result.kind === 'response' && result.status >= 200 && result.status < 300) {
      const parsed = parseObject(result.body);
      if ('error' in parsed)
        return fail(`fetch_invalid_response: ${parsed.error}`, attemptNumber, { ...summary, status_code: result.status });
      return {
        flow: 'continue',
        status: 'ok',
        data: parsed.value,
        output: { ...summary, status_code: result.status, keys: Object.keys(parsed.value) },
      };
    }

    const problem = result.kind === 'network' ? `network error: ${result.error}` : `HTTP ${result.status}`;
    const retryable = result.kind === 'network' ? fetchRetryable({ networkError: true }) : fetchRetryable({ status: result.status });
    if (!retryable)
      return fail(`fetch_failed: ${problem}`, attemptNumber, {
        ...summary,
        status_code: result.kind === 'response' ? result.status : null,
      });
    if (attemptNumber >= ctx.deps.settings.fetchMaxAttempts)
      return fail(`fetch_failed after ${attemptNumber} attempts: ${problem}`, attemptNumber, summary);

    const delay = fetchRetryDelayMs(attemptNumber, {
      baseMs: settings.retryBaseMs,
      maxMs: settings.retryMaxMs,
      retryAfterMs: result.kind === 'response' ? parseRetryAfter(result.retryAfter, ctx.now) : null,
      jitter: Math.random(),
    });
    return {
      flow: 'pause',
      reason: 'fetch_retry',
      resumeAt: new Date(ctx.now.getTime() + delay),
      waitingFor: { attempt: attemptNumber, error: problem },
    };
  }

  /** Renders the template with the run's variables. */
  private async prepare(ctx: StepContext, template: RequestTemplateDef): Promise<PreparedRequest | { error: string }> {
    const render = async (source: string, field: string): Promise<{ ok: true; value: string } | { ok: false; error: string }> => {
      const result = await ctx.deps.templates.render(
        source,
        await ctx.variables(),
        ctx.deps.lookups.templateResources(ctx.environment, { tenant: ctx.state.run!.tenant }),
      );
      return result.ok
        ? { ok: true, value: result.output }
        : { ok: false, error: `template_render_error: ${field}: ${result.error.message}` };
    };
    const pairs = async (
      source: KeyValues,
      field: string,
    ): Promise<{ ok: true; value: Record<string, string> } | { ok: false; error: string }> => {
      if (source === undefined || source === null || source === '') return { ok: true, value: {} };
      if (typeof source === 'string') {
        const rendered = await render(source, field);
        if (!rendered.ok) return rendered;
        const parsed = parseObject(rendered.value);
        if ('error' in parsed) return { ok: false, error: `${field} must render to a JSON object: ${parsed.error}` };
        return {
          ok: true,
          value: Object.fromEntries(Object.entries(parsed.value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
        };
      }
      const value: Record<string, string> = {};
      for (const { key, value: v } of source) {
        const rendered = await render(v, `${field}.${key}`);
        if (!rendered.ok) return rendered;
        value[key] = rendered.value;
      }
      return { ok: true, value };
    };

    const url = await render(template.url ?? '', 'url');
    if (!url.ok) return { error: url.error };
    const query = await pairs(template.query_params, 'query_params');
    if (!query.ok) return { error: query.error };
    const headers = await pairs(template.headers, 'headers');
    if (!headers.ok) return { error: headers.error };
    const target = url.value.trim();
    const problem = fetchUrlProblem(target);
    if (problem) return { error: `fetch_refused: ${problem}` };
    const full = new URL(target);
    for (const [k, v] of Object.entries(query.value)) full.searchParams.append(k, v);

    const method = (template.method ?? 'get').toUpperCase();
    let body: string | null = null;
    if (method !== 'GET' && template.body) {
      const rendered = await render(template.body, 'body');
      if (!rendered.ok) return { error: rendered.error };
      if (rendered.value.trim()) {
        try {
          body = JSON.stringify(JSON.parse(rendered.value));
        } catch (error) {
          return { error: `body is not valid JSON after rendering: ${(error as Error).message}` };
        }
      }
    }
    const merged: Record<string, string> = { accept: 'application/json', 'user-agent': 'notify-fetch-step/1', ...lowerKeys(headers.value) };
    if (body !== null) merged['content-type'] ??= 'application/json';
    return { method, url: full.toString(), headers: merged, body };
  }

  /** One attempt: the request and its redirects, each hop's address checked by the outbound client. */
  private async call(ctx: StepContext, request: PreparedRequest, timeoutMs: number): Promise<Attempt> {
    try {
      const response = await ctx.deps.http.request({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body ?? undefined,
        signal: AbortSignal.timeout(timeoutMs),
        maxRedirects: MAX_REDIRECTS,
        maxBodyBytes: MAX_RESPONSE_BYTES,
      });
      if (response.truncated)
        return { kind: 'invalid', status: response.status, reason: `the response is larger than ${MAX_RESPONSE_BYTES} bytes` };
      return { kind: 'response', status: response.status, body: response.body, retryAfter: response.headers['retry-after'] ?? null };
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) return { kind: 'refused', reason: `${refused.reason}: ${refused.message}` };
      const e = error as Error & { cause?: { code?: string; message?: string }; code?: string };
      const reason =
        e.name === 'TimeoutError' || e.name === 'AbortError'
          ? `timed out after ${timeoutMs} ms`
          : (e.cause?.code ?? e.code ?? e.cause?.message ?? e.message);
      return { kind: 'network', error: reason };
    }
  }
}

function fail(reason: string, attempt: number, output: Record<string, unknown> = {}): StepOutcome {
  return { flow: 'halt', status: 'error', reason, output: { ...output, attempts: attempt } };
}

function parseObject(text: string): { value: Record<string, unknown> } | { error: string } {
  if (!text.trim()) return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: 'the response is not JSON' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'the response is not a JSON object' };
  return { value: parsed as Record<string, unknown> };
}

/** The URL as recorded on the run: query strings often carry tokens. */
function withoutQuery(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function definedOnly<T extends Record<string, number | undefined>>(values: T): Partial<Record<keyof T, number>> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<Record<keyof T, number>>;
}
