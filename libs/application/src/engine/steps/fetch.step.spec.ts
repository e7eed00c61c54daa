import type { StepNode } from '@notify/domain';
import { HttpFetchStep } from './fetch.step';
import { stepContext } from './step-context.fixture';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fetch that answers from a list and records what it was asked. */
function fakeFetch(answers: (Response | Error)[]) {
  const seen: Seen[] = [];
  const fn = async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), method: String(init?.method), headers: init?.headers as Record<string, string>, body: init?.body as string | undefined });
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fn: fn as unknown as typeof fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const publicHost = async () => ['93.184.216.34'];

const step = (settings: Record<string, unknown>): StepNode => ({ type: 'http_fetch', ref: 'fetch', settings });
const template = {
  method: 'post',
  url: '{{ vars.api }}/orders/{{ data.order_id }}',
  headers: [{ key: 'X-Api-Key', value: 'k-{{ recipient.id }}' }],
  query_params: [{ key: 'for', value: '{{ recipient.name }}' }],
  body: '{"user": "{{ recipient.id }}", "n": {{ data.n }}}',
};

describe('http_fetch step', () => {
  const handler = new HttpFetchStep();

  it('renders the request, calls it and merges the JSON object answered into the data', async () => {
    const fetch = fakeFetch([json(200, { order: { status: 'shipped' }, n: 2 })]);
    const outcome = await handler.execute(stepContext(step(template), { data: { order_id: 'o-1', n: 1 }, deps: { fetch: fetch.fn, resolveHost: publicHost } }));
    expect(fetch.seen).toEqual([
      {
        url: 'https://api.example.com/orders/o-1?for=Ada',
        method: 'POST',
        headers: expect.objectContaining({ 'x-api-key': 'k-ada', 'content-type': 'application/json', accept: 'application/json' }),
        body: '{"user":"ada","n":1}',
      },
    ]);
    expect(outcome).toMatchObject({ flow: 'continue', status: 'ok', data: { order: { status: 'shipped' }, n: 2 }, output: { status_code: 200, method: 'POST', url: 'https://api.example.com/orders/o-1', attempts: 1 } });
  });

  it('takes headers and query params as a Liquid string rendering to a JSON object', async () => {
    const fetch = fakeFetch([new Response(null, { status: 204 })]);
    const settings = { method: 'get', url: 'https://api.example.com/x', headers: '{{ data.headers | json }}', query_params: '{"page": {{ data.page }}}' };
    const outcome = await handler.execute(stepContext(step(settings), { data: { headers: { Authorization: 'Bearer t' }, page: 3 }, deps: { fetch: fetch.fn, resolveHost: publicHost } }));
    expect(fetch.seen[0]).toMatchObject({ url: 'https://api.example.com/x?page=3', method: 'GET', headers: expect.objectContaining({ authorization: 'Bearer t' }), body: undefined });
    expect(outcome).toMatchObject({ flow: 'continue', status: 'ok', output: { status_code: 204, keys: [] } });
  });

  it('pauses for a retry on 5xx, 429 and network errors, with a growing delay', async () => {
    const cases: [Response | Error, string][] = [
      [json(503, {}), 'HTTP 503'],
      [json(429, {}, { 'retry-after': '30' }), 'HTTP 429'],
      [Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), 'network error: ECONNREFUSED'],
    ];
    for (const [answer, error] of cases) {
      const fetch = fakeFetch([answer]);
      const ctx = stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { attempt: 1, resumed: true, deps: { fetch: fetch.fn, resolveHost: publicHost } });
      const outcome = await handler.execute(ctx);
      expect(outcome).toMatchObject({ flow: 'pause', reason: 'fetch_retry', waitingFor: { attempt: 2, error } });
      const delay = (outcome as { resumeAt: Date }).resumeAt.getTime() - ctx.now.getTime();
      if (error === 'HTTP 429') expect(delay).toBe(30_000);
      else expect(delay).toBeGreaterThanOrEqual(1600); // 2000 ms +-20% for the second attempt
      if (error !== 'HTTP 429') expect(delay).toBeLessThanOrEqual(2400);
    }
  });

  it('ends the run with the error after the last attempt, and at once on a 4xx', async () => {
    const last = await handler.execute(stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { attempt: 2, deps: { fetch: fakeFetch([json(502, {})]).fn, resolveHost: publicHost } }));
    expect(last).toEqual({ flow: 'halt', status: 'error', reason: 'fetch_failed after 3 attempts: HTTP 502', output: expect.objectContaining({ attempts: 3 }) });
    const notFound = await handler.execute(stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { deps: { fetch: fakeFetch([json(404, {})]).fn, resolveHost: publicHost } }));
    expect(notFound).toMatchObject({ flow: 'halt', status: 'error', reason: 'fetch_failed: HTTP 404', output: { status_code: 404 } });
    const array = await handler.execute(stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { deps: { fetch: fakeFetch([json(200, [1, 2])]).fn, resolveHost: publicHost } }));
    expect(array).toMatchObject({ flow: 'halt', status: 'error', reason: 'fetch_invalid_response: the response is not a JSON object' });
  });

  it('refuses hosts resolving to private addresses before calling them, unless allowed', async () => {
    for (const addresses of [['127.0.0.1'], ['::1'], ['93.184.216.34', '10.0.0.7'], ['169.254.169.254']]) {
      const fetch = fakeFetch([]);
      const outcome = await handler.execute(stepContext(step({ method: 'get', url: 'https://internal.example.com/x' }), { deps: { fetch: fetch.fn, resolveHost: async () => addresses } }));
      expect(outcome).toMatchObject({ flow: 'halt', status: 'error', reason: expect.stringMatching(/^fetch_refused: internal\.example\.com: address_not_allowed:/) });
      expect(fetch.seen).toEqual([]);
    }
    const fetch = fakeFetch([json(200, { ok: true })]);
    const allowed = await handler.execute(
      stepContext(step({ method: 'get', url: 'http://127.0.0.1:8080/x' }), { deps: { fetch: fetch.fn, resolveHost: async () => ['127.0.0.1'], settings: { allowPrivateFetch: true, fetchMaxAttempts: 3 } } }),
    );
    expect(allowed).toMatchObject({ flow: 'continue', data: { ok: true } });
  });

  it('checks every redirect hop and refuses one into a private network', async () => {
    const fetch = fakeFetch([new Response(null, { status: 302, headers: { location: 'http://metadata.internal/latest' } })]);
    const resolveHost = async (host: string) => (host === 'metadata.internal' ? ['169.254.169.254'] : ['93.184.216.34']);
    const outcome = await handler.execute(stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { deps: { fetch: fetch.fn, resolveHost } }));
    expect(fetch.seen).toHaveLength(1);
    expect(outcome).toMatchObject({ flow: 'halt', reason: 'fetch_refused: metadata.internal: address_not_allowed:link_local:169.254.169.254' });

    const follow = fakeFetch([new Response(null, { status: 303, headers: { location: '/done' } }), json(200, { moved: true })]);
    const ok = await handler.execute(stepContext(step({ method: 'post', url: 'https://api.example.com/x', body: '{}' }), { deps: { fetch: follow.fn, resolveHost } }));
    expect(follow.seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', 'https://api.example.com/x', '{}'],
      ['GET', 'https://api.example.com/done', undefined],
    ]);
    expect(ok).toMatchObject({ flow: 'continue', data: { moved: true } });
  });

  it('records template errors and non-http URLs as the step error without calling anything', async () => {
    const fetch = fakeFetch([]);
    const badBody = await handler.execute(stepContext(step({ method: 'post', url: 'https://api.example.com', body: '{"a": {{ data.missing }}' }), { deps: { fetch: fetch.fn, resolveHost: publicHost } }));
    expect(badBody).toMatchObject({ flow: 'halt', status: 'error', reason: expect.stringContaining('body is not valid JSON after rendering') });
    const file = await handler.execute(stepContext(step({ method: 'get', url: 'file:///etc/passwd' }), { deps: { fetch: fetch.fn, resolveHost: publicHost } }));
    expect(file).toMatchObject({ flow: 'halt', status: 'error', reason: 'fetch_refused: unsupported_scheme:file' });
    expect(fetch.seen).toEqual([]);
  });
});
