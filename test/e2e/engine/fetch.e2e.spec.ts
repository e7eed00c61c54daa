import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { activeWorkflow, bodyOf, feed, finishedRuns, messagesOf, uniqueKey } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** A local HTTP server whose answers the test decides per path; it records every request. */
async function peer(
  handler: (req: Received, res: ServerResponse, count: number) => void,
): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const r = { method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() };
      received.push(r);
      handler(r, res, received.filter((x) => x.url.split('?')[0] === r.url.split('?')[0]).length);
    });
  });
  server.keepAliveTimeout = 0; // idle connections stay until close(): no close racing a reuse (see libs/testing peers)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // the /slow requests are still open
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('workflow engine: http_fetch', () => {
  let server: Awaited<ReturnType<typeof peer>>;
  beforeAll(async () => {
    server = await peer((req, res, count) => {
      const path = req.url.split('?')[0];
      if (path.startsWith('/orders/')) return json(res, 200, { order: { id: path.slice(8), status: 'shipped' }, n: 2 });
      if (path === '/echo') return json(res, 201, { echoed: JSON.parse(req.body || 'null') });
      if (path === '/flaky') return count < 3 ? json(res, 503, { error: 'busy' }) : json(res, 200, { recovered: count });
      if (path === '/down') return json(res, 500, { error: 'down' });
      if (path === '/missing') return json(res, 404, { error: 'nope' });
      if (path === '/slow') return; // never answers
      if (path === '/to-inside') {
        // 127.0.0.2 is loopback too, but not on the allow-list of these tests.
        res.writeHead(302, { location: `http://127.0.0.2:${new URL(`http://${req.headers.host}`).port}/orders/inside` });
        return res.end();
      }
      if (path === '/moved') {
        res.writeHead(302, { location: '/orders/moved' });
        return res.end();
      }
      json(res, 404, {});
    });
  });
  afterAll(async () => server?.close());

  describe('with the peer allow-listed (OUTBOUND_ALLOWED_ADDRESSES=127.0.0.1)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        env: { OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1', FETCH_RETRY_BASE_MS: '400', FETCH_MAX_ATTEMPTS: '3', FETCH_TIMEOUT_MS: '700' },
      });
    });
    afterAll(async () => t?.close());

    it('renders and sends the request, and merges the JSON answer into the data later steps render', async () => {
      const key = uniqueKey('fetch-get');
      await activeWorkflow(t, key, {
        steps: [
          {
            type: 'http_fetch',
            ref: 'lookup',
            settings: {
              method: 'get',
              url: `${server.url}/orders/{{ data.order_id }}`,
              headers: [{ key: 'X-Api-Key', value: 'key-for-{{ recipient.id }}' }],
              query_params: [{ key: 'user', value: '{{ recipient.id }}' }],
            },
          },
          feed('feed', 'Order {{ data.order.id }} is {{ data.order.status }} (n={{ data.n }}, kept={{ data.kept }})'),
        ],
      });
      const { workflow_run_id } = await t
        .knock()
        .workflows.trigger(key, { recipients: [{ id: 'fe-ada' }], data: { order_id: 'o-42', n: 1, kept: 'yes' } });
      const [run] = await finishedRuns(t, workflow_run_id);
      const request = server.received.find((r) => r.url.startsWith('/orders/o-42'))!;
      expect(request).toMatchObject({
        method: 'GET',
        url: '/orders/o-42?user=fe-ada',
        headers: expect.objectContaining({ 'x-api-key': 'key-for-fe-ada', accept: 'application/json' }),
      });
      expect(run.steps.lookup).toMatchObject({
        status: 'ok',
        attempt: 1,
        output: { status_code: 200, method: 'GET', url: `${server.url}/orders/o-42`, keys: ['order', 'n'] },
      });
      expect(run.events.find((e) => e.type === 'RunDataUpdated')!.data.data).toEqual({ order: { id: 'o-42', status: 'shipped' }, n: 2 });
      expect(bodyOf((await messagesOf(t, workflow_run_id))[0])).toBe('Order o-42 is shipped (n=2, kept=yes)');
    });

    it('follows redirects', async () => {
      const key = uniqueKey('fetch-redirect');
      await activeWorkflow(t, key, {
        steps: [
          { type: 'http_fetch', ref: 'lookup', settings: { method: 'get', url: `${server.url}/moved` } },
          feed('feed', '{{ data.order.id }}'),
        ],
      });
      const { workflow_run_id } = await t.knock().workflows.trigger(key, { recipients: [{ id: 'fe-moved' }] });
      await finishedRuns(t, workflow_run_id);
      expect(server.received.filter((r) => r.url === '/moved' || r.url === '/orders/moved').map((r) => r.url)).toEqual([
        '/moved',
        '/orders/moved',
      ]);
      expect(bodyOf((await messagesOf(t, workflow_run_id))[0])).toBe('moved');
    });

    it('refuses a redirect to an address the allow-list does not name', async () => {
      const key = uniqueKey('fetch-redirect-inside');
      await activeWorkflow(t, key, {
        steps: [{ type: 'http_fetch', ref: 'lookup', settings: { method: 'get', url: `${server.url}/to-inside` } }, feed('feed', 'never')],
      });
      const { workflow_run_id } = await t.knock().workflows.trigger(key, { recipients: [{ id: 'fe-inside' }] });
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.lookup).toMatchObject({
        status: 'error',
        reason: expect.stringMatching(/^fetch_refused: address_not_allowed: 127\.0\.0\.2 is a loopback address/),
        attempt: 1,
      });
      expect(server.received.some((r) => r.url === '/orders/inside')).toBe(false);
      expect(await messagesOf(t, workflow_run_id)).toEqual([]);
    });

    it('sends a rendered JSON body with POST', async () => {
      const key = uniqueKey('fetch-post');
      await activeWorkflow(t, key, {
        steps: [
          {
            type: 'http_fetch',
            ref: 'post',
            settings: {
              method: 'post',
              url: `${server.url}/echo`,
              body: '{"user": "{{ recipient.id }}", "items": {{ data.items | json }}}',
            },
          },
          feed('feed', '{{ data.echoed.user }}:{{ data.echoed.items | size }}'),
        ],
      });
      const { workflow_run_id } = await t.knock().workflows.trigger(key, { recipients: [{ id: 'fe-bob' }], data: { items: [1, 2, 3] } });
      const [run] = await finishedRuns(t, workflow_run_id);
      const request = server.received.find((r) => r.url === '/echo' && r.body.includes('fe-bob'))!;
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(JSON.parse(request.body)).toEqual({ user: 'fe-bob', items: [1, 2, 3] });
      expect(run.steps.post.output.status_code).toBe(201);
      expect(bodyOf((await messagesOf(t, workflow_run_id))[0])).toBe('fe-bob:3');
    });

    it('retries 5xx answers with a growing durable backoff, then continues with the answer', async () => {
      const key = uniqueKey('fetch-retry');
      await activeWorkflow(t, key, {
        steps: [
          { type: 'http_fetch', ref: 'flaky', settings: { method: 'get', url: `${server.url}/flaky` } },
          feed('feed', 'recovered after {{ data.recovered }}'),
        ],
      });
      const { workflow_run_id } = await t.knock().workflows.trigger(key, { recipients: [{ id: 'fe-retry' }] });
      const [run] = await finishedRuns(t, workflow_run_id);
      const pauses = run.events.filter((e) => e.type === 'RunPaused').map((e) => e.data);
      expect(pauses.map((p) => [p.reason, p.waiting_for])).toEqual([
        ['fetch_retry', { attempt: 1, error: 'HTTP 503' }],
        ['fetch_retry', { attempt: 2, error: 'HTTP 503' }],
      ]);
      // 400 ms, then 800 ms, each +-20%.
      const waits = pauses.map((p) => Date.parse(p.resume_at) - Date.parse(p.at));
      expect(waits[0]).toBeGreaterThanOrEqual(320);
      expect(waits[0]).toBeLessThanOrEqual(480);
      expect(waits[1]).toBeGreaterThanOrEqual(640);
      expect(waits[1]).toBeLessThanOrEqual(960);
      expect(run.events.filter((e) => e.type === 'TimerFired')).toHaveLength(2);
      expect(run.steps.flaky).toMatchObject({ status: 'ok', attempt: 3, output: { status_code: 200, attempts: 3 } });
      const calls = server.received.filter((r) => r.url === '/flaky');
      // The backoff is checked on the run's own pause and timer events above: the peer's arrival
      // times are taken when its handler runs, late by however long the test process was busy.
      expect(calls).toHaveLength(3);
      expect(bodyOf((await messagesOf(t, workflow_run_id))[0])).toBe('recovered after 3');
    });

    it('ends the run with the error after the last attempt, on a 4xx at once, and on timeouts', async () => {
      const key = uniqueKey('fetch-fail');
      const workflowFor = async (path: string) => {
        const k = `${key}-${path}`;
        await activeWorkflow(t, k, {
          steps: [{ type: 'http_fetch', ref: 'call', settings: { method: 'get', url: `${server.url}/${path}` } }, feed('feed', 'never')],
        });
        return (await t.knock().workflows.trigger(k, { recipients: [{ id: 'fe-fail' }] })).workflow_run_id;
      };
      const [down, missing, slow] = await Promise.all([workflowFor('down'), workflowFor('missing'), workflowFor('slow')]);
      const [downRun] = await finishedRuns(t, down);
      expect(downRun.steps.call).toMatchObject({ status: 'error', reason: 'fetch_failed after 3 attempts: HTTP 500', attempt: 3 });
      expect(downRun.completed).toEqual(expect.objectContaining({ outcome: 'halted', reason: 'fetch_failed after 3 attempts: HTTP 500' }));
      expect(server.received.filter((r) => r.url === '/down')).toHaveLength(3);

      const [missingRun] = await finishedRuns(t, missing);
      expect(missingRun.steps.call).toMatchObject({
        status: 'error',
        reason: 'fetch_failed: HTTP 404',
        attempt: 1,
        output: expect.objectContaining({ status_code: 404 }),
      });
      expect(missingRun.types).not.toContain('RunPaused');

      const [slowRun] = await finishedRuns(t, slow);
      expect(slowRun.steps.call).toMatchObject({
        status: 'error',
        reason: 'fetch_failed after 3 attempts: network error: timed out after 700 ms',
      });
      for (const id of [down, missing, slow]) expect(await messagesOf(t, id)).toEqual([]);
    });
  });

  describe('with no allow-list (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { OUTBOUND_ALLOWED_ADDRESSES: '' } });
    });
    afterAll(async () => t?.close());

    it('refuses loopback targets (by address or by name) without calling them', async () => {
      const port = new URL(server.url).port;
      const before = server.received.length;
      const key = uniqueKey('fetch-refused');
      await activeWorkflow(t, key, {
        steps: [
          {
            type: 'branch',
            ref: 'pick',
            branches: [
              {
                conditions: { all: [{ variable: 'data.by_name', operator: 'equal_to', argument: 'true' }] },
                steps: [{ type: 'http_fetch', ref: 'by_name', settings: { method: 'get', url: `http://localhost:${port}/orders/1` } }],
              },
              { steps: [{ type: 'http_fetch', ref: 'by_ip', settings: { method: 'get', url: `${server.url}/orders/1` } }] },
            ],
          },
          feed('feed', 'never'),
        ],
      });
      const byIp = await t.knock().workflows.trigger(key, { recipients: [{ id: 'fr-ada' }], data: { by_name: false } });
      const [ipRun] = await finishedRuns(t, byIp.workflow_run_id);
      expect(ipRun.steps.by_ip).toMatchObject({
        status: 'error',
        reason:
          'fetch_refused: address_not_allowed: 127.0.0.1 is a loopback address; calls to non-public addresses are refused unless OUTBOUND_ALLOWED_ADDRESSES lists them',
      });
      expect(ipRun.completed).toMatchObject({ outcome: 'halted' });

      const byName = await t.knock().workflows.trigger(key, { recipients: [{ id: 'fr-ada' }], data: { by_name: true } });
      const [nameRun] = await finishedRuns(t, byName.workflow_run_id);
      expect(nameRun.steps.by_name).toMatchObject({
        status: 'error',
        reason: expect.stringMatching(/^fetch_refused: address_not_allowed: localhost \((127\.0\.0\.1|::1)\) is a loopback address;/),
      });
      expect(server.received.length).toBe(before);
      expect(await messagesOf(t, byIp.workflow_run_id)).toEqual([]);
    });
  });
});
