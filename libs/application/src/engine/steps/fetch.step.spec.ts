import type { StepNode } from '@notify/domain';
import { OutboundRefusedError, type OutboundRequest, type OutboundResponse } from '@notify/outbound';
import { HttpFetchStep } from './fetch.step';
import { stepContext } from './step-context.fixture';

/** An outbound client that answers from a list and records what it was asked. */
function fakeHttp(answers: (OutboundResponse | Error)[]) {
  const seen: OutboundRequest[] = [];
  const client = {
    request: async (request: OutboundRequest): Promise<OutboundResponse> => {
      seen.push(request);
      const next = answers.shift();
      if (!next) throw new Error('unexpected request');
      if (!('status' in next)) throw next;
      return next;
    },
  };
  return { client, seen };
}

const answer = (status: number, body: string, headers: Record<string, string> = {}): OutboundResponse => ({
  status,
  headers,
  body,
  truncated: false,
  url: 'https://api.example.com/',
});
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  answer(status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });

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
    const fetch = fakeHttp([json(200, { order: { status: 'shipped' }, n: 2 })]);
    const outcome = await handler.execute(stepContext(step(template), { data: { order_id: 'o-1', n: 1 }, deps: { http: fetch.client } }));
    expect(fetch.seen.map(({ url, method, headers, body }) => ({ url, method, headers, body }))).toEqual([
      {
        url: 'https://api.example.com/orders/o-1?for=Ada',
        method: 'POST',
        headers: expect.objectContaining({ 'x-api-key': 'k-ada', 'content-type': 'application/json', accept: 'application/json' }),
        body: '{"user":"ada","n":1}',
      },
    ]);
    expect(outcome).toMatchObject({
      flow: 'continue',
      status: 'ok',
      data: { order: { status: 'shipped' }, n: 2 },
      output: { status_code: 200, method: 'POST', url: 'https://api.example.com/orders/o-1', attempts: 1 },
    });
  });

  it('takes headers and query params as a Liquid string rendering to a JSON object', async () => {
    const fetch = fakeHttp([answer(204, '')]);
    const settings = {
      method: 'get',
      url: 'https://api.example.com/x',
      headers: '{{ data.headers | json }}',
      query_params: '{"page": {{ data.page }}}',
    };
    const outcome = await handler.execute(
      stepContext(step(settings), { data: { headers: { Authorization: 'Bearer t' }, page: 3 }, deps: { http: fetch.client } }),
    );
    expect(fetch.seen[0]).toMatchObject({
      url: 'https://api.example.com/x?page=3',
      method: 'GET',
      headers: expect.objectContaining({ authorization: 'Bearer t' }),
      body: undefined,
    });
    expect(outcome).toMatchObject({ flow: 'continue', status: 'ok', output: { status_code: 204, keys: [] } });
  });

  it('pauses for a retry on 5xx, 429 and network errors, with a growing delay', async () => {
    const cases: [OutboundResponse | Error, string][] = [
      [json(503, {}), 'HTTP 503'],
      [json(429, {}, { 'retry-after': '30' }), 'HTTP 429'],
      [Object.assign(new Error('connect ECONNREFUSED 93.184.216.34:443'), { code: 'ECONNREFUSED' }), 'network error: ECONNREFUSED'],
      [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 'network error: timed out after 2000 ms'],
    ];
    for (const [given, error] of cases) {
      const fetch = fakeHttp([given]);
      const ctx = stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), {
        attempt: 1,
        resumed: true,
        deps: { http: fetch.client },
      });
      const outcome = await handler.execute(ctx);
      expect(outcome).toMatchObject({ flow: 'pause', reason: 'fetch_retry', waitingFor: { attempt: 2, error } });
      const delay = (outcome as { resumeAt: Date }).resumeAt.getTime() - ctx.now.getTime();
      if (error === 'HTTP 429') expect(delay).toBe(30_000);
      else expect(delay).toBeGreaterThanOrEqual(1600); // 2000 ms +-20% for the second attempt
      if (error !== 'HTTP 429') expect(delay).toBeLessThanOrEqual(2400);
    }
  });

  it('ends the run with the error after the last attempt, and at once on a 4xx', async () => {
    const last = await handler.execute(
      stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), {
        attempt: 2,
        deps: { http: fakeHttp([json(502, {})]).client },
      }),
    );
    expect(last).toEqual({
      flow: 'halt',
      status: 'error',
      reason: 'fetch_failed after 3 attempts: HTTP 502',
      output: expect.objectContaining({ attempts: 3 }),
    });
    const notFound = await handler.execute(
      stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { deps: { http: fakeHttp([json(404, {})]).client } }),
    );
    expect(notFound).toMatchObject({ flow: 'halt', status: 'error', reason: 'fetch_failed: HTTP 404', output: { status_code: 404 } });
    const array = await handler.execute(
      stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { deps: { http: fakeHttp([json(200, [1, 2])]).client } }),
    );
    expect(array).toMatchObject({ flow: 'halt', status: 'error', reason: 'fetch_invalid_response: the response is not a JSON object' });
  });

  it('ends the run at once when the outbound client refuses the target (never retried)', async () => {
    const refusal = OutboundRefusedError.address('internal.example.com', '10.0.0.7', 'private');
    const fetch = fakeHttp([refusal]);
    const outcome = await handler.execute(
      stepContext(step({ method: 'get', url: 'https://internal.example.com/x' }), { deps: { http: fetch.client } }),
    );
    expect(outcome).toEqual({
      flow: 'halt',
      status: 'error',
      reason:
        'fetch_refused: address_not_allowed: internal.example.com (10.0.0.7) is a private address; calls to non-public addresses are refused unless OUTBOUND_ALLOWED_ADDRESSES lists them',
      output: { method: 'GET', url: 'https://internal.example.com/x', attempts: 1 },
    });
    const redirects = fakeHttp([new OutboundRefusedError('too_many_redirects', 'more than 5 redirects')]);
    expect(
      await handler.execute(stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { deps: { http: redirects.client } })),
    ).toMatchObject({ flow: 'halt', reason: 'fetch_refused: too_many_redirects: more than 5 redirects' });
  });

  it('asks the client to follow up to 5 redirects and to read at most 1 MiB, and refuses a longer answer', async () => {
    const fetch = fakeHttp([{ ...json(200, {}), truncated: true }]);
    const outcome = await handler.execute(
      stepContext(step({ method: 'get', url: 'https://api.example.com/x' }), { deps: { http: fetch.client } }),
    );
    expect(fetch.seen[0]).toMatchObject({ maxRedirects: 5, maxBodyBytes: 1_048_576, signal: expect.any(AbortSignal) });
    expect(outcome).toMatchObject({
      flow: 'halt',
      status: 'error',
      reason: 'fetch_invalid_response: the response is larger than 1048576 bytes',
      output: { status_code: 200 },
    });
  });

  it('records template errors and non-http URLs as the step error without calling anything', async () => {
    const fetch = fakeHttp([]);
    const badBody = await handler.execute(
      stepContext(step({ method: 'post', url: 'https://api.example.com', body: '{"a": {{ data.missing }}' }), {
        deps: { http: fetch.client },
      }),
    );
    expect(badBody).toMatchObject({
      flow: 'halt',
      status: 'error',
      reason: expect.stringContaining('body is not valid JSON after rendering'),
    });
    const file = await handler.execute(stepContext(step({ method: 'get', url: 'file:///etc/passwd' }), { deps: { http: fetch.client } }));
    expect(file).toMatchObject({ flow: 'halt', status: 'error', reason: 'fetch_refused: unsupported_scheme:file' });
    expect(fetch.seen).toEqual([]);
  });
});
