import { allRoutes } from '@notify/contracts';
import { itWith, testEnv } from '@notify/testing';
import { startTestApp, TestApp, TestEnvironment } from '../support/test-app';

/** The HTTP conventions every endpoint shares, driven over real HTTP. */
describe('platform conventions', () => {
  let t: TestApp;
  let other: TestEnvironment;
  const countEvents = async () => Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);

  beforeAll(async () => {
    t = await startTestApp();
    other = await t.newEnvironment();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('authentication', () => {
    it('answers a request without a key with 401 api_key_missing', async () => {
      const res = await t.http('GET', '/v1/users/u1', { key: null });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'api_key_missing', message: expect.any(String), status: 401, type: 'authentication_error' });
    });

    it("answers an unknown key, or a malformed header, with Knock's code for an invalid key, saying it is invalid", async () => {
      expect((await t.http('GET', '/v1/users/u1', { key: 'sk_not_a_real_key_at_all_0000' })).body).toMatchObject({
        code: 'api_key_missing',
        status: 401,
        message: expect.stringContaining('API key you provided is invalid'),
      });
      // A wrong service token on the management API (what the console's sign-in shows).
      expect((await t.http('GET', '/v1/whoami', { key: 'svc_not_a_real_token_0000000000' })).body).toMatchObject({
        code: 'api_key_missing',
        status: 401,
        message: expect.stringContaining('service token you provided is invalid'),
      });
      const basic = await t.http('GET', '/v1/users/u1', { key: null, headers: { authorization: `Basic ${t.env.secretKey}` } });
      expect(basic.status).toBe(401);
    });

    it('refuses a publishable key on a secret-only endpoint with 403, and writes nothing', async () => {
      const before = await countEvents();
      const list = await t.http('GET', '/v1/users', { key: t.env.publishableKey });
      expect(list.status).toBe(403);
      expect(list.body).toMatchObject({ code: 'authorization', status: 403, type: 'authentication_error' });
      const del = await t.http('DELETE', '/v1/users/someone', { key: t.env.publishableKey });
      expect(del.status).toBe(403);
      expect(await countEvents()).toBe(before);
    });

    it('lets a publishable key call the user-scoped endpoints the browser client uses', async () => {
      const res = await t.http('PUT', '/v1/users/browser-user', { key: t.env.publishableKey, body: { name: 'From the browser' } });
      expect(res.status).toBe(200);
      expect((await t.http('GET', '/v1/users/browser-user', { key: t.env.publishableKey })).body).toMatchObject({
        id: 'browser-user',
        name: 'From the browser',
      });
    });
  });

  describe('environments', () => {
    it('never lets a key read or change another environment', async () => {
      await t.http('PUT', '/v1/users/shared-id', { body: { name: 'In development' } });
      await t.http('PUT', '/v1/users/shared-id', { key: other.secretKey, body: { name: 'In the other one' } });
      await t.http('PUT', '/v1/users/only-dev', { body: { name: 'dev only' } });
      expect((await t.http('GET', '/v1/users/shared-id')).body.name).toBe('In development');
      expect((await t.http('GET', '/v1/users/shared-id', { key: other.secretKey })).body.name).toBe('In the other one');
      const missing = await t.http('GET', '/v1/users/only-dev', { key: other.secretKey });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 'resource_missing', message: expect.any(String), status: 404, type: 'invalid_request_error' });
      const otherIds = (await t.http('GET', '/v1/users', { key: other.secretKey })).body.entries.map((u: { id: string }) => u.id);
      expect(otherIds).toEqual(['shared-id']);
      // Deleting in one environment leaves the other untouched.
      expect((await t.http('DELETE', '/v1/users/shared-id', { key: other.secretKey })).status).toBe(204);
      expect((await t.http('GET', '/v1/users/shared-id')).status).toBe(200);
      expect((await t.http('GET', '/v1/users/shared-id', { key: other.secretKey })).status).toBe(404);
    });
  });

  describe('errors', () => {
    it('answers a body that is not JSON with 400 invalid_json, writing nothing', async () => {
      const before = await countEvents();
      const res = await t.http('PUT', '/v1/users/bad-json', { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_json', status: 400, type: 'invalid_request_error' });
      expect(await countEvents()).toBe(before);
    });

    it('answers invalid fields with 422 invalid_params naming each of them, writing nothing', async () => {
      const before = await countEvents();
      const res = await t.http('PUT', '/v1/users/typed', { body: { email: 42, timezone: 'Mars/Olympus', created_at: 'yesterday' } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'invalid_params', status: 422, type: 'invalid_request_error' });
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['created_at', 'email', 'timezone']);
      expect(await countEvents()).toBe(before);
      expect((await t.http('GET', '/v1/users/typed')).status).toBe(404);
    });

    it('rejects an id over the length limit', async () => {
      const res = await t.http('PUT', `/v1/users/${'x'.repeat(256)}`, { body: {} });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'user_id' })]);
    });

    it('answers a body over the size limit with 413', async () => {
      const res = await t.http('PUT', '/v1/users/huge', { body: { blob: 'x'.repeat(t.config.BODY_LIMIT_BYTES + 10) } });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    });

    it('answers an unrouted path with 404 in the error shape', async () => {
      for (const [method, p] of [
        ['GET', '/v1/nothing-here'],
        ['POST', '/v1/users'],
        ['GET', '/'],
        ['PATCH', '/v1/users/u1'],
      ] as const) {
        const res = await t.http(method, p);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          code: 'route_not_found',
          message: `No route matches ${method} ${p}`,
          status: 404,
          type: 'invalid_request_error',
        });
      }
    });
  });

  describe('pagination', () => {
    it('rejects page_size outside 1..50 with 422', async () => {
      for (const size of ['51', '0', 'many']) {
        const res = await t.http('GET', `/v1/users?page_size=${size}`);
        expect(res.status).toBe(422);
        expect(res.body.errors).toEqual([expect.objectContaining({ field: 'page_size' })]);
      }
      expect((await t.http('GET', '/v1/users?after=not-a-cursor')).body.errors).toEqual([expect.objectContaining({ field: 'after' })]);
    });

    it('walks forwards and backwards with opaque cursors, after null on the last page', async () => {
      const e = await t.newEnvironment();
      for (let i = 0; i < 7; i++) await t.http('PUT', `/v1/users/p${i}`, { key: e.secretKey, body: { name: `n${i}` } });
      const page = (q: string) => t.http('GET', `/v1/users?${q}`, { key: e.secretKey });
      const first = (await page('page_size=3')).body;
      expect(first.page_info).toEqual({ __typename: 'PageInfo', after: expect.any(String), before: null, page_size: 3, total_count: 7 });
      const second = (await page(`page_size=3&after=${first.page_info.after}`)).body;
      const third = (await page(`page_size=3&after=${second.page_info.after}`)).body;
      expect(third.entries).toHaveLength(1);
      expect(third.page_info.after).toBeNull();
      const ids = [...first.entries, ...second.entries, ...third.entries].map((u: { id: string }) => u.id);
      expect(ids).toEqual(['p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
      const back = (await page(`page_size=3&before=${third.page_info.before}`)).body;
      expect(back.entries.map((u: { id: string }) => u.id)).toEqual(['p3', 'p2', 'p1']);
      expect((await page('page_size=50')).body.page_info.after).toBeNull();
    });
  });

  describe('query strings', () => {
    it('accepts a[]=x, a[0]=x, a=x and dotted forms alike', async () => {
      for (const q of ['include[]=preferences', 'include[0]=preferences', 'include=preferences', 'include%5B%5D=preferences']) {
        const res = await t.http('GET', `/v1/users?${q}&page_size=1`);
        expect(res.status).toBe(200);
      }
      expect((await t.http('GET', '/v1/users?include[]=nonsense')).status).toBe(422);
    });
  });

  describe('headers', () => {
    it('puts an x-request-id on every response, echoing a sane incoming one', async () => {
      expect((await t.http('GET', '/healthz', { key: null })).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect((await t.http('GET', '/v1/nothing')).headers.get('x-request-id')).toBeTruthy();
      expect((await t.http('GET', '/v1/users/u1', { headers: { 'x-request-id': 'req-123' } })).headers.get('x-request-id')).toBe('req-123');
      expect((await t.http('GET', '/v1/users/u1', { key: null })).headers.get('x-request-id')).toBeTruthy();
    });

    it('answers CORS preflights for browser clients', async () => {
      const res = await fetch(`${t.url}/v1/users/u1`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'authorization,x-knock-user-token',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(res.headers.get('access-control-allow-headers')).toContain('x-knock-user-token');
      // Every method a browser-callable route uses may be sent (the browser client identifies its
      // user with PUT, unsets channel data with DELETE).
      const allowed = (res.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
      const used = [
        ...new Set(
          allRoutes()
            .filter((r) => r.auth === 'public')
            .map((r) => r.method),
        ),
      ];
      expect(used).toEqual(expect.arrayContaining(['PUT', 'DELETE']));
      expect(used.filter((m) => !allowed.includes(m))).toEqual([]);
    });
  });

  describe('read-your-writes', () => {
    it('shows a write to the very next read, from any client', async () => {
      for (let i = 0; i < 20; i++) {
        await t.http('PUT', `/v1/users/ryw-${i}`, { body: { n: i } });
        const read = await t.http('GET', `/v1/users/ryw-${i}`);
        expect(read.body).toMatchObject({ id: `ryw-${i}`, n: i });
      }
    });
  });

  describe('API description', () => {
    it('serves the OpenAPI 3.1 document as JSON and YAML without credentials', async () => {
      const json = await t.http('GET', '/openapi.json', { key: null });
      expect(json.status).toBe(200);
      expect(json.body.openapi).toBe('3.1.0');
      expect(json.body.paths['/v1/users/{user_id}'].put.operationId).toBe('identifyUser');
      const yaml = await t.http('GET', '/openapi.yaml', { key: null });
      expect(yaml.headers.get('content-type')).toContain('application/yaml');
      expect(yaml.body).toContain('openapi: 3.1.0');
    });
  });

  describe('health', () => {
    it('reports liveness and each backend in readiness', async () => {
      expect((await t.http('GET', '/healthz', { key: null })).body).toEqual({ status: 'ok' });
      const ready = await t.http('GET', '/readyz', { key: null });
      expect(ready.status).toBe(200);
      expect(ready.body.backends).toMatchObject({ database: { status: 'up' }, eventstore: { status: 'up' } });
      expect(ready.body.projections.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['environments', 'users']));
    });
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_ENABLED: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with retry-after past a tier limit, per endpoint and environment', async () => {
    // DELETE /v1/users/{id} is tier 2: 5 requests a second.
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => t.http('DELETE', `/v1/users/rl-${i}`)));
    const limited = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 204).length).toBe(5);
    expect(limited.length).toBe(3);
    expect(limited[0].body).toMatchObject({ code: 'rate_limit_exceeded', status: 429, type: 'rate_limit_error' });
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another endpoint, and another environment, have their own budgets.
    expect((await t.http('GET', '/v1/users/rl-0')).status).toBe(404);
    const other = await t.newEnvironment();
    expect((await t.http('DELETE', '/v1/users/rl-0', { key: other.secretKey })).status).toBe(204);
  });
});

describe('rate limits shared through Redis', () => {
  const itRedis = itWith('redis');
  let a: TestApp | undefined;
  let b: TestApp | undefined;
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  itRedis('counts requests to one environment across two api instances', async () => {
    const env = { RATE_LIMIT_ENABLED: 'true', REDIS_URL: testEnv.redisUrl! };
    [a, b] = await Promise.all([startTestApp({ env }), startTestApp({ env })]);
    const slug = `shared-${Date.now().toString(36)}`;
    const [ea, eb] = await Promise.all([a.newEnvironment(slug), b.newEnvironment(slug)]);
    // Tier 2 allows 5 a second per environment: 4 on one instance and 4 on the other exceed it.
    const results = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => a!.http('DELETE', `/v1/users/x${i}`, { key: ea.secretKey })),
      ...Array.from({ length: 4 }, (_, i) => b!.http('DELETE', `/v1/users/y${i}`, { key: eb.secretKey })),
    ]);
    expect(results.filter((r) => r.status === 204)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(3);
  });
});
